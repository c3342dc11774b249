/**
 * Writing reports into the cache, and noticing what the writes change: a report new to the
 * copy, a watched field changed (reportDiff.ts), a report removed. From a scope's first full
 * sync on, those changes go to its change log in the same transaction as the rows; the user's
 * own creates, updates and deletes are not news and are not logged.
 */
import type Database from 'better-sqlite3';
import type { ReportChange } from '../../../shared/contract';
import type { Report } from '../../../shared/report';
import type { ChangeLog } from './changeLog';
import { idSortKey, parseRecord, projectOf, recordJson, textOrNull, type ReportRow } from './records';
import { addedFields, changedFields, isBadNews, removedFields } from './reportDiff';

/** Meta key set when a full sync completes; from the first one on, changes are logged. */
export const LAST_FULL_SYNC_META = 'last_full_sync_at';
/** Meta key: since when the change log's unseen entries count (the first full sync, then "mark all as seen"). */
export const CHANGES_SINCE_META = 'changes_since';
/** Meta key holding the mark of an unfinished full sync; reports written meanwhile count as seen. */
export const SYNC_ID_META = 'sync_id';

/** The age shown for cached data is minute-grained, so an unchanged row's fetch time is too. */
const FETCHED_AT_GRANULARITY_MS = 60_000;

/** How a write came about: a full sync's pass (`syncId`), or the user's own change (not news). */
export interface PutOptions {
  syncId?: string;
  own?: boolean;
}

/** What a write changed in the copy: reports new to it, reports changed in a watched field. */
export interface WriteCounts {
  added: number;
  changed: number;
  /** New bad reports and reports that turned bad, among the changes logged. */
  badNews: number;
}

/** What the writes need of the cache that owns the connection. */
export interface WriteContext {
  statement: (sql: string) => Database.Statement;
  transaction: <T>(fn: () => T) => T;
  getMeta: (scope: string, key: string) => string | null;
  changes: ChangeLog;
}

/**
 * A row for the batch upsert as a JSON array. Numbers keep the storage class a bound value
 * gets (better-sqlite3 binds a number as REAL, a bigint as INTEGER): a JSON number with a
 * fraction or an exponent reads as REAL, one without as INTEGER.
 */
function rowJson(values: unknown[]): string {
  const cell = (value: unknown): string => {
    if (typeof value === 'bigint') return String(value);
    if (typeof value === 'number') return Number.isSafeInteger(value) ? `${value}.0` : value.toExponential();
    return JSON.stringify(value);
  };
  return `[${values.map(cell).join(',')}]`;
}

export class ReportWrites {
  constructor(private readonly cache: WriteContext) {}

  /**
   * Upserts reports in one transaction. `syncId` marks them as seen by that full sync's pass;
   * without it they count as seen by the scope's unfinished sync, if any (they exist on the
   * service, so a sync in progress must not prune them). Once the scope had a full sync,
   * reports new to the copy and changes to watched fields are logged (not the user's `own`).
   */
  put(scope: string, reports: Report[], fetchedAt: string, options: PutOptions = {}): WriteCounts {
    // One statement for the whole batch: SQLite then keeps one statement journal for it, not
    // one per report (each spills past 64 KiB to a temporary file).
    const upsert = this.cache.statement(`
      INSERT INTO reports (scope, id, id_sort, url, url_lower, result, project, generated_at,
                           fetched_at, last_seen_sync, record)
      SELECT @scope, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5,
             value ->> 6, @fetchedAt, @seen, value ->> 7
      FROM json_each(@rows) WHERE true
      ON CONFLICT (scope, id) DO UPDATE SET
        id_sort = excluded.id_sort, url = excluded.url, url_lower = excluded.url_lower,
        result = excluded.result, project = excluded.project, generated_at = excluded.generated_at,
        fetched_at = excluded.fetched_at, record = excluded.record,
        last_seen_sync = coalesce(excluded.last_seen_sync, reports.last_seen_sync)`);
    // Most refreshes bring back reports that have not changed, often seconds after the last
    // time. Such a row is left alone (no page written, no index or trigger touched) unless its
    // fetch time is more than a minute old or a full sync must mark it as seen.
    const existing = this.cache.statement(`
      SELECT id, record, fetched_at, last_seen_sync FROM reports
      WHERE scope = ? AND id IN (SELECT value FROM json_each(?))`);
    const touch = this.cache.statement(`
      UPDATE reports SET fetched_at = @fetchedAt, last_seen_sync = coalesce(@seen, last_seen_sync)
      WHERE scope = @scope AND id = @id`);
    const staleBefore = new Date(Date.parse(fetchedAt) - FETCHED_AT_GRANULARITY_MS).toISOString();
    const counts: WriteCounts = { added: 0, changed: 0, badNews: 0 };
    const logged: ReportChange[] = [];
    const written: string[] = [];
    this.cache.transaction(() => {
      const seen = options.syncId ?? this.cache.getMeta(scope, SYNC_ID_META);
      const rows = reports.map((report) => ({ report, id: String(report.id), record: recordJson(report) }));
      const stored = new Map(
        (
          existing.all(scope, JSON.stringify(rows.map((r) => r.id))) as {
            id: string;
            record: string;
            fetched_at: string;
            last_seen_sync: string | null;
          }[]
        ).map((row) => [row.id, row]),
      );
      for (const { report, id, record } of rows) {
        const before = stored.get(id);
        if (before && before.record === record) {
          const fresh = before.fetched_at >= staleBefore && before.fetched_at <= fetchedAt;
          const marked = seen === null || before.last_seen_sync === seen;
          if (!(fresh && marked)) touch.run({ scope, id, fetchedAt, seen });
          continue;
        }
        const change = before ? changedFields(parseRecord(before), report) : addedFields(report);
        if (change) {
          counts[before ? 'changed' : 'added'] += 1;
          logged.push({ id, kind: before ? 'changed' : 'added', at: fetchedAt, fields: change });
        }
        const url = typeof report.url === 'string' ? report.url : '';
        written.push(
          rowJson([
            id,
            idSortKey(id),
            url,
            url.toLowerCase(),
            textOrNull(report.result),
            projectOf(report.project),
            textOrNull(report.generated_at),
            record,
          ]),
        );
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty batch inserts nothing; the check only saves running the statement.
      if (written.length > 0) upsert.run({ scope, fetchedAt, seen, rows: `[${written.join(',')}]` });
      // Stryker disable next-line ConditionalExpression,EqualityOperator: nothing to log records nothing and counts no bad news; the check only saves reading the meta value.
      if (logged.length > 0 && this.logsChanges(scope, options)) {
        this.cache.changes.record(scope, logged);
        counts.badNews = logged.filter((change) => isBadNews(change.kind, change.fields)).length;
      }
    });
    return counts;
  }

  /** Whether changes found now are news: after the scope's first full sync, and not the user's own. */
  logsChanges(scope: string, options: { own?: boolean }): boolean {
    return options.own !== true && this.cache.getMeta(scope, LAST_FULL_SYNC_META) !== null;
  }

  /** Deletes the scope's rows matching `where`, logging them as removed when that is news; answers how many. */
  remove(scope: string, where: string, params: unknown[], options: { own?: boolean; at?: string }): number {
    return this.cache.transaction(() => {
      if (this.logsChanges(scope, options)) {
        const at = options.at ?? new Date().toISOString();
        const rows = this.cache
          .statement(`SELECT id, record, fetched_at FROM reports WHERE scope = ? AND ${where}`)
          .all(scope, ...params) as ReportRow[];
        this.cache.changes.record(
          scope,
          rows.map((row) => ({ id: row.id, kind: 'removed', at, fields: removedFields(parseRecord(row)) })),
        );
      }
      return this.cache.statement(`DELETE FROM reports WHERE scope = ? AND ${where}`).run(scope, ...params)
        .changes;
    });
  }
}
