/**
 * TanStack Query wiring: the client, the query keys (profile id and every parameter in each),
 * the read hooks, and the cache edits mutations make. Reads run even while offline
 * (networkMode 'always') because the core answers them from its cache; the UI disables writes.
 */
import {
  QueryClient,
  keepPreviousData,
  useQuery,
  useQueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type {
  ConnectivityState,
  LanguageState,
  ProfilesState,
  ReportPageResult,
  ReportResult,
} from '../../../shared/contract';
import { normalizeListQuery, type NormalizedListQuery, type Report } from '../../../shared/model';
import { call } from './bridge';
import { followLanguageState } from './i18n';
import { listStateToQuery, type ListState } from './listState';

export const queryKeys = {
  profiles: ['profiles'] as const,
  connectivity: ['connectivity'] as const,
  reportsOf: (profileId: string) => ['reports', profileId] as const,
  reports: (profileId: string, query: NormalizedListQuery) => ['reports', profileId, query] as const,
  reportDetailsOf: (profileId: string) => ['report', profileId] as const,
  report: (profileId: string, id: string) => ['report', profileId, id] as const,
  account: (profileId: string) => ['account', profileId] as const,
  cacheStatus: (profileId: string) => ['cache-status', profileId] as const,
  projects: (profileId: string) => ['projects', profileId] as const,
  language: ['language'] as const,
};

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        networkMode: 'always',
        // The core already retries and falls back to its cache; a second retry layer here
        // would only delay the error sentence the user needs to see.
        retry: false,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      mutations: { networkMode: 'always', retry: false },
    },
  });
}

/** What decides the app's language (Settings › Language); kept current by `language:changed`. */
export function useLanguageState() {
  return useQuery({
    queryKey: queryKeys.language,
    queryFn: () => call('settings:language'),
    staleTime: Infinity,
  });
}

/** A language state from the core (the first answer, a choice, an event): kept, and shown. */
export function applyLanguageState(client: QueryClient, state: LanguageState): Promise<void> {
  client.setQueryData(queryKeys.language, state);
  return followLanguageState(state);
}

export function useProfiles() {
  return useQuery({
    queryKey: queryKeys.profiles,
    queryFn: () => call('profiles:list'),
    staleTime: Infinity,
  });
}

/** The active profile's id, or null while loading or when there is none. */
export function useActiveProfileId(): string | null {
  const { data } = useProfiles();
  return data?.activeId ?? null;
}

/**
 * Connectivity answers and events can arrive out of order (a "Try again" that started while
 * offline may answer after the event saying we are back): the state that changed last wins.
 */
export function latestConnectivity(
  current: ConnectivityState | undefined,
  incoming: ConnectivityState,
): ConnectivityState {
  if (current && Date.parse(current.since) > Date.parse(incoming.since)) return current;
  return incoming;
}

/** Stores a connectivity answer or event, unless a newer state is already known. */
export function applyConnectivity(client: QueryClient, incoming: ConnectivityState): void {
  client.setQueryData<ConnectivityState>(queryKeys.connectivity, (current) =>
    latestConnectivity(current, incoming),
  );
}

export function useConnectivity() {
  const client = useQueryClient();
  return useQuery({
    queryKey: queryKeys.connectivity,
    // A refetch answers the state when it was asked; an event may have overtaken it since,
    // so compare with what is known once the answer is in.
    queryFn: async () => {
      const answered = await call('connectivity:status');
      return latestConnectivity(client.getQueryData(queryKeys.connectivity), answered);
    },
    // Kept fresh by 'connectivity:changed' events, not by polling.
    staleTime: Infinity,
  });
}

/**
 * The parts every per-profile read shares: its key names the profile, and it stays idle while
 * there is no active profile (the core would only answer "no profile").
 */
function scopedToProfile<K extends QueryKey>(profileId: string | null, keyFor: (profileId: string) => K) {
  return { queryKey: keyFor(profileId ?? ''), enabled: profileId !== null };
}

export function useReports(profileId: string | null, state: ListState) {
  const query = listStateToQuery(state);
  const normalized = normalizeListQuery(query);
  return useQuery({
    ...scopedToProfile(profileId, (id) => queryKeys.reports(id, normalized)),
    queryFn: () => call('reports:list', query),
    // Keep the previous page on screen while the next loads — but never another profile's.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === profileId ? keepPreviousData(previous) : undefined,
  });
}

export function useReport(profileId: string | null, id: string) {
  return useQuery({
    ...scopedToProfile(profileId, (profile) => queryKeys.report(profile, id)),
    queryFn: () => call('reports:get', { id }),
  });
}

export function useAccount(profileId: string | null) {
  return useQuery({ ...scopedToProfile(profileId, queryKeys.account), queryFn: () => call('account:get') });
}

/** How often the cache status is asked again while a sync runs somewhere. */
export const CACHE_STATUS_POLL_MS = 2_000;

export function useCacheStatus(profileId: string | null) {
  return useQuery({
    ...scopedToProfile(profileId, queryKeys.cacheStatus),
    queryFn: () => call('cache:status'),
    // While a sync runs (in this window, another one or a CLI run), follow it: its end changes
    // the counts and turns "Make available offline" back on.
    refetchInterval: (query) => (query.state.data?.syncing ? CACHE_STATUS_POLL_MS : false),
  });
}

/** Resolves once the frame being prepared is on screen. */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

let firstScreenPainted: Promise<void> | null = null;
/** The reads after the first screen wait this long at most for the page to be idle. */
const IDLE_WAIT_MS = 500;

/**
 * Resolves once the app's first screen is on screen, and at once from then on (issue 22): the
 * reads that only add to the first screen — the changes panel, the "new" marks, the overview,
 * the update bar — are asked after the rows are painted, not in their way.
 */
export function afterFirstScreen(): Promise<void> {
  firstScreenPainted ??= afterPaint().then(whenIdle);
  return firstScreenPainted;
}

/** Resolves once the page has nothing else to do (at the latest after IDLE_WAIT_MS). */
function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => resolve(), { timeout: IDLE_WAIT_MS });
    else setTimeout(resolve, 0);
  });
}

export function useProjects(profileId: string | null) {
  return useQuery({
    ...scopedToProfile(profileId, queryKeys.projects),
    // Suggestions for the project filter, asked once the list is on screen, not in its way
    // (issue 22: the call was a tenth of the first screen's render).
    queryFn: () => afterPaint().then(() => call('cache:projects')),
    staleTime: 60_000,
  });
}

function isListPage(value: unknown): value is ReportPageResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as ReportPageResult).reports);
}

/** The reports list and its project suggestions may be out of date: ask for them again. */
export function invalidateReportLists(client: QueryClient, profileId: string): void {
  void client.invalidateQueries({ queryKey: queryKeys.reportsOf(profileId) });
  void client.invalidateQueries({ queryKey: queryKeys.projects(profileId) });
}

/** A report just came back from the service: show it everywhere, then refetch the lists. */
export function applyReportSaved(client: QueryClient, profileId: string, report: Report): void {
  const fresh: ReportResult = { report, source: 'network', fetchedAt: new Date().toISOString() };
  client.setQueryData(queryKeys.report(profileId, report.id), fresh);
  client.setQueriesData<ReportPageResult>({ queryKey: queryKeys.reportsOf(profileId) }, (page) =>
    isListPage(page)
      ? { ...page, reports: page.reports.map((r) => (r.id === report.id ? report : r)) }
      : page,
  );
  invalidateReportLists(client, profileId);
}

/** A report was deleted: drop it from every cached page at once, then refetch the lists. */
export function applyReportDeleted(client: QueryClient, profileId: string, id: string): void {
  client.setQueriesData<ReportPageResult>({ queryKey: queryKeys.reportsOf(profileId) }, (page) => {
    if (!isListPage(page)) return page;
    const reports = page.reports.filter((r) => r.id !== id);
    if (reports.length === page.reports.length) return page;
    return { ...page, reports, total: page.total === null ? null : Math.max(0, page.total - 1) };
  });
  client.removeQueries({ queryKey: queryKeys.report(profileId, id) });
  void client.invalidateQueries({ queryKey: queryKeys.reportsOf(profileId) });
  void client.invalidateQueries({ queryKey: queryKeys.cacheStatus(profileId) });
}

/**
 * A `profiles:changed` event (from this window's own change or from another ReportDesk
 * process): the profile list is replaced, the data of a profile whose service or key changed
 * is fetched again, and the data of a removed profile is dropped.
 */
export function applyProfilesChanged(client: QueryClient, state: ProfilesState): void {
  const before = client.getQueryData<ProfilesState>(queryKeys.profiles);
  client.setQueryData(queryKeys.profiles, state);
  if (!before) return;
  const now = new Map(state.profiles.map((profile) => [profile.id, profile]));
  for (const old of before.profiles) {
    const current = now.get(old.id);
    if (!current) {
      client.removeQueries({ predicate: (query) => query.queryKey[1] === old.id });
    } else if (
      current.baseUrl !== old.baseUrl ||
      current.keyHint !== old.keyHint ||
      current.hasKey !== old.hasKey
    ) {
      void refreshProfileData(client, old.id);
    }
  }
}

/** Refetches what the active profile shows (the Refresh command). */
export function refreshProfileData(client: QueryClient, profileId: string | null): Promise<void> {
  if (profileId === null) return client.invalidateQueries({ queryKey: queryKeys.profiles });
  const prefixes: QueryKey[] = [
    queryKeys.reportsOf(profileId),
    queryKeys.reportDetailsOf(profileId),
    queryKeys.account(profileId),
    queryKeys.cacheStatus(profileId),
    queryKeys.projects(profileId),
    queryKeys.connectivity,
  ];
  return Promise.all(prefixes.map((queryKey) => client.invalidateQueries({ queryKey }))).then(
    () => undefined,
  );
}
