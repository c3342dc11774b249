/**
 * History for the front ends (issue 27): periods, one URL's reports, compare, the URLs at an
 * instant, and their export, from the active profile's offline copy only: no keychain, no
 * network, the same answers with the service down. A copy never read in full would give wrong
 * numbers, so until the profile's first full sync every answer is `not_synced`.
 */
import {
  defaultPeriodKind,
  formatInstant,
  parseInstant,
  periodsCovering,
  runtimeTimeZone,
} from '../../../shared/calendar';
import {
  MAX_HISTORY_PERIODS,
  type ChannelParsedInput,
  type ExportResult,
  type HistoryCompare,
  type HistoryPeriods,
  type HistoryTimeline,
  type HistoryUnavailable,
  type HistoryUrls,
  type ResultTally,
} from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import { REPORT_RESULTS } from '../../../shared/model';
import type { Vector } from '../cache/history';
import { LAST_FULL_SYNC_META, type ReportCache } from '../cache/reportCache';
import { compareFile, periodsFile } from '../export/historyExport';
import type { Connections } from './connection';
import type { ExportService } from './exportService';

interface Ready {
  available: true;
  profileId: string;
  lastFullSyncAt: string;
  timeZone: string;
}

const tally = ([good, decent, bad]: Vector): ResultTally => ({ good, decent, bad });

/** An input instant the schema has checked. */
const instantOf = (text: string): number => parseInstant(text) as number;

export class HistoryService {
  constructor(
    private readonly connections: Connections,
    private readonly cache: ReportCache,
    private readonly now: () => Date,
    private readonly exports: ExportService,
  ) {}

  periods(input: ChannelParsedInput<'history:periods'>): HistoryPeriods | HistoryUnavailable {
    const ready = this.ready(input.timeZone);
    if (!ready.available) return ready;
    const whose = { scope: ready.profileId, project: input.project };
    const until = input.until === undefined ? this.now().getTime() : instantOf(input.until);
    const since =
      input.since === undefined
        ? this.cache.readHistory((history) => history.oldest(whose))
        : instantOf(input.since);
    const by = input.by ?? (since === null ? 'week' : defaultPeriodKind(since, until));
    const periods =
      since === null ? [] : periodsCovering(by, since, until, ready.timeZone, MAX_HISTORY_PERIODS);
    if (periods === null) {
      throw new AppFailure(appError('history.too_many_periods', { max: MAX_HISTORY_PERIODS, by }));
    }
    // The first period's start, then every period's end.
    const edges = periods.flatMap((period, i) => (i === 0 ? [period.start, period.end] : [period.end]));
    const counts = this.cache.readHistory((history) => history.periods(whose, edges));
    const at = (instant: number) => formatInstant(instant, ready.timeZone);
    return {
      ...ready,
      by,
      project: input.project,
      since: since === null ? null : at(since),
      until: at(until),
      periods: periods.map((period, i) => ({
        start: at(period.start),
        end: at(period.end),
        urls: tally(counts[i].urls),
        generated: tally(counts[i].generated),
      })),
    };
  }

  timeline(input: ChannelParsedInput<'history:timeline'>): HistoryTimeline | HistoryUnavailable {
    const ready = this.ready(undefined);
    if (!ready.available) return ready;
    const { points, skipped } = this.cache.readHistory((history) =>
      history.timeline(ready.profileId, input.url),
    );
    const changes = this.cache.local.read(() =>
      this.cache.changes.forReports(
        ready.profileId,
        points.map((point) => point.id),
        input.url,
      ),
    );
    return {
      ...ready,
      url: input.url,
      reports: points.map(({ id, generatedAt, result, privacy, project }) => ({
        id,
        generatedAt,
        result,
        privacy,
        project,
      })),
      transitions: points
        .filter((point) => point.previous !== null && point.previous !== point.result)
        .map((point) => ({
          id: point.id,
          generatedAt: point.generatedAt,
          from: point.previous!,
          to: point.result,
        })),
      changes: changes.map(({ id, kind, at, fields }) => ({ id, kind, at, fields })),
      skipped,
    };
  }

  compare(input: ChannelParsedInput<'history:compare'>): HistoryCompare | HistoryUnavailable {
    const ready = this.ready(input.timeZone);
    if (!ready.available) return ready;
    const from = instantOf(input.from);
    const to = instantOf(input.to);
    const changes = this.cache.readHistory((history) =>
      history.compare({ scope: ready.profileId, project: input.project }, from, to),
    );
    const rank = (result: string) => REPORT_RESULTS.indexOf(result as never);
    const counts = { new: 0, better: 0, worse: 0 };
    for (const change of changes) {
      if (change.before === null) counts.new += 1;
      else if (rank(change.after) < rank(change.before)) counts.better += 1;
      else counts.worse += 1;
    }
    return {
      ...ready,
      project: input.project,
      from: formatInstant(from, ready.timeZone),
      to: formatInstant(to, ready.timeZone),
      changes,
      counts,
    };
  }

  urls(input: ChannelParsedInput<'history:urls'>): HistoryUrls | HistoryUnavailable {
    const ready = this.ready(input.timeZone);
    if (!ready.available) return ready;
    const whose = { scope: ready.profileId, project: input.project };
    const at = instantOf(input.at);
    const page = this.cache.readHistory((history) => history.urlsAt(whose, at, input));
    return {
      ...ready,
      project: input.project,
      at: formatInstant(at, ready.timeZone),
      result: input.result,
      counts: tally(this.cache.readHistory((history) => history.urlCountsAt(whose, at))),
      ...page,
    };
  }

  /** The chart's numbers, or a compare, as a file to save like any export. */
  export(input: ChannelParsedInput<'history:export'>): ExportResult {
    const now = this.now();
    const exportedAt = now.toISOString();
    const answer = input.kind === 'periods' ? this.periods(input) : this.compare(input);
    if (!answer.available) {
      throw new AppFailure(appError('history.not_available', {}, { reason: 'nothing_cached' }));
    }
    const file =
      'periods' in answer
        ? {
            content: periodsFile(input.format, answer, exportedAt),
            count: answer.periods.length,
            what: 'history',
          }
        : {
            content: compareFile(input.format, answer, exportedAt),
            count: answer.changes.length,
            what: 'compare',
          };
    return this.exports.ready(
      { format: input.format, content: file.content, count: file.count },
      now,
      { source: 'cache', fetchedAt: answer.lastFullSyncAt, pages: 0 },
      file.what,
    );
  }

  /** The active profile's copy, when it was read in full; the zone the answer's instants carry. */
  private ready(timeZone: string | undefined): Ready | HistoryUnavailable {
    const scope = this.connections.activeScope();
    if (!scope) return { available: false, reason: 'no_profile' };
    const lastFullSyncAt = this.cache.getMeta(scope, LAST_FULL_SYNC_META);
    if (lastFullSyncAt === null) return { available: false, reason: 'not_synced' };
    return { available: true, profileId: scope, lastFullSyncAt, timeZone: timeZone ?? runtimeTimeZone() };
  }
}
