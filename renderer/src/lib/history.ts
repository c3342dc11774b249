/**
 * History's reads (issue 27) for the renderer: the core answers from the offline copy only, so
 * these run the same with the service down. Their keys sit under the cache status's, so whatever
 * refreshes that (a sync, a quick check, a clear, another process's change) refreshes history.
 * Instants go out with the window's time zone, so periods and dates are the user's local ones.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  HistoryChange,
  HistoryCompare,
  HistoryPeriods,
  HistoryUnavailable,
  ResultTally,
} from '../../../shared/contract';
import { formatInstant, runtimeTimeZone, startOfLocalDay, type PeriodKind } from '../../../shared/calendar';
import type { ReportResult } from '../../../shared/model';
import { call } from './bridge';
import { queryKeys } from './queries';

/** The zone the window shows dates in (and the CLI's `TZ` for the same numbers). */
export const windowTimeZone = (): string => runtimeTimeZone();

const historyKey = (profileId: string, ...parts: unknown[]) =>
  [...queryKeys.cacheStatus(profileId), 'history', ...parts] as const;

export interface HistoryFilters {
  project: string | null;
  /** Local dates (YYYY-MM-DD) as a date field gives them; '' for none. */
  since: string;
  until: string;
  /** Null: the kind the core finds best for the range. */
  by: PeriodKind | null;
}

export function isAvailable<T extends { available: true }>(
  answer: T | HistoryUnavailable | undefined,
): answer is T {
  return answer !== undefined && answer.available;
}

/** A date field's value as the instant of that day's local midnight (what the CLI reads a date as); null when empty or not a date. */
export function dayStart(date: string, timeZone = windowTimeZone()): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = match.slice(1).map(Number);
  return formatInstant(startOfLocalDay({ year, month, day }, timeZone), timeZone);
}

/** The local date (YYYY-MM-DD) an instant falls on, for a date field. */
export function localDateOf(instant: string): string {
  const date = new Date(instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The periods input for `history:periods` and its export. */
export function periodsInput(filters: HistoryFilters) {
  const since = dayStart(filters.since);
  const until = dayStart(filters.until);
  return {
    project: filters.project,
    timeZone: windowTimeZone(),
    ...(filters.by ? { by: filters.by } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
  };
}

export function useHistoryPeriods(profileId: string, filters: HistoryFilters) {
  const input = periodsInput(filters);
  return useQuery({
    queryKey: historyKey(profileId, 'periods', input),
    queryFn: () => call('history:periods', input),
    placeholderData: keepPreviousData,
  });
}

export const URLS_PAGE = 100;

export function useHistoryUrls(
  profileId: string,
  at: string | null,
  project: string | null,
  result: ReportResult | null,
) {
  return useInfiniteQuery({
    queryKey: historyKey(profileId, 'urls', at, project, result),
    enabled: at !== null,
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      call('history:urls', {
        at: at!,
        project,
        result,
        after: pageParam,
        limit: URLS_PAGE,
        timeZone: windowTimeZone(),
      }),
    getNextPageParam: (last) => (last.available && last.next !== null ? last.next : undefined),
  });
}

export interface CompareAsked {
  from: string;
  to: string;
  project: string | null;
}

export function useHistoryCompare(profileId: string, asked: CompareAsked | null) {
  return useQuery({
    queryKey: historyKey(profileId, 'compare', asked),
    enabled: asked !== null,
    queryFn: () => call('history:compare', { ...asked!, timeZone: windowTimeZone() }),
  });
}

export function useUrlTimeline(profileId: string, url: string) {
  return useQuery({
    queryKey: historyKey(profileId, 'timeline', url),
    queryFn: () => call('history:timeline', { url }),
  });
}

const RANK: Record<ReportResult, number> = { good: 0, decent: 1, bad: 2 };

export type ChangeGroup = 'worse' | 'better' | 'new';

/** How a URL moved between two instants: no report before it (new), to a worse result, or to a better one. */
export function changeGroup(change: Pick<HistoryChange, 'before' | 'after'>): ChangeGroup {
  if (change.before === null) return 'new';
  return RANK[change.after] > RANK[change.before] ? 'worse' : 'better';
}

export const CHANGE_GROUPS: readonly ChangeGroup[] = ['worse', 'better', 'new'];

export const countOf = (compare: HistoryCompare, group: ChangeGroup): number => compare.counts[group];

export const tallyTotal = (tally: ResultTally): number => tally.good + tally.decent + tally.bad;

export type { HistoryPeriods };
