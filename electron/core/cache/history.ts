/**
 * History from the offline copy (issue 27): what migrations/v6History.ts keeps current, read.
 * A URL's result at T is the result of its newest report generated at or before T (the larger
 * id wins a tie), and with a project, a URL is the project's at T when that report is. Periods,
 * the URLs at an instant, one URL's reports and the URLs whose result differs between two
 * instants all follow. Instants are ms since 1970 (UTC); results are the service's words.
 * Reads only (the triggers write), and clearing a scope whole.
 */
import type Database from 'better-sqlite3';
import { REPORT_RESULTS, type ReportResult } from '../../../shared/model';
import { HistoryCounts, type HistoryScope, type Vector } from './historyCounts';

export type { HistoryScope, Vector } from './historyCounts';

/** One URL as it stood at an instant: the report that gave its result. */
export interface UrlAt {
  url: string;
  id: string;
  result: ReportResult;
  /** The report's generated_at as the service sent it. */
  generatedAt: string;
}

/** A counted report of one URL, oldest first. */
export interface TimelinePoint {
  id: string;
  result: ReportResult;
  /** The previous report's result; null for the URL's first. */
  previous: ReportResult | null;
  generatedAt: string;
  /** The service's privacy value, as it sent it (null when it sent none). */
  privacy: unknown;
  project: string | null;
}

/** A URL whose result at `to` differs from its result at `from`. */
export interface ResultChange {
  url: string;
  before: ReportResult | null;
  after: ReportResult;
  beforeId: string | null;
  afterId: string;
}

/** The id a point's tie key was made from (see TIE in migrations/v6History.ts). */
export function idOfTie(tie: string): string {
  if (tie.startsWith('1')) return tie.slice(1);
  const digits = tie.charCodeAt(1) - 65;
  return tie.slice(2 + digits) + tie.slice(2, 2 + digits);
}

const resultOf = (code: number): ReportResult => REPORT_RESULTS[code];

/** A UTF-16 unit's place when text is ordered by code point (see byCodePoint). */
const codePointRank = (unit: number) =>
  unit >= 0xd800 ? (unit >= 0xe000 ? unit - 0x800 : unit + 0x2000) : unit;

/**
 * Text in code point order, as SQLite's binary collation orders UTF-8 (and so URLs are ordered
 * everywhere else). JavaScript's < orders UTF-16 units, which is the same order except where a
 * surrogate (half of a character beyond U+FFFF) meets a character from U+E000 on: surrogates are
 * ranked above those here.
 */
export function byCodePoint(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** UTF-16 unit order: JavaScript's own comparison of strings. */
export function byUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A UTF-16 unit from U+D800 on: only where one is present can `<` and code point order differ. */
const FROM_D800 = /[\uD800-\uFFFF]/;

/**
 * The comparison that puts `keys` in code point order: JavaScript's own where no key has a unit
 * from U+D800 on (URLs nearly always; a third of byCodePoint's cost), else byCodePoint.
 */
export function codePointOrderFor(keys: readonly string[]): (a: string, b: string) => number {
  return keys.some((key) => FROM_D800.test(key)) ? byCodePoint : byUnit;
}

/** The URL's point at @at (its result then), among a scope's points `p`. */
const STANDING = (at: string) => `p.at <= ${at} AND (p.next_at IS NULL OR p.next_at > ${at})`;

export class HistoryReads {
  private readonly counts: HistoryCounts;

  constructor(private readonly statement: (sql: string) => Database.Statement) {
    this.counts = new HistoryCounts(statement);
  }

  /** The instant of the oldest counted report (of the project's, with one); null when none. */
  oldest(whose: HistoryScope): number | null {
    if (whose.project === null) {
      const row = this.statement('SELECT min(at) AS at FROM history_points WHERE scope = ?').get(whose.scope);
      return (row as { at: number | null }).at;
    }
    // The project's first day with a report, then its first report that day.
    const row = this.statement(
      `SELECT min(p.at) AS at
       FROM (SELECT min(bucket) * 86400000 AS start FROM history_project_buckets
             WHERE scope = @scope AND project = @project AND size = 'd' AND generated > 0) AS first,
         history_points p INDEXED BY history_points_by_time
       WHERE p.scope = @scope AND p.at >= first.start AND p.at < first.start + 86400000
         AND p.project = @project`,
    ).get(whose);
    return (row as { at: number | null }).at;
  }

  /** URLs per result at each period's end, and reports generated in each, for consecutive edges. */
  periods(whose: HistoryScope, edges: readonly number[]): { urls: Vector; generated: Vector }[] {
    return this.counts.periods(whose, edges);
  }

  /** URLs per result at an instant. */
  urlCountsAt(whose: HistoryScope, at: number): Vector {
    return this.counts.sumsAt(whose, [at])[0].urls;
  }

  /**
   * The URLs as they stood at `at`, in URL order after `after`, at most `limit` (with `result`,
   * only those with that result); `next` is the last URL given when more follow.
   */
  urlsAt(
    whose: HistoryScope,
    at: number,
    options: { result: ReportResult | null; after: string; limit: number },
  ): { urls: UrlAt[]; next: string | null } {
    const rows = this.statement(
      `SELECT p.url, p.tie, p.result FROM history_points p
       WHERE p.scope = @scope AND p.url > @after AND ${STANDING('@at')}
         AND (@project IS NULL OR p.project = @project) AND (@result IS NULL OR p.result = @result)
       ORDER BY p.url LIMIT @limit`,
    ).all({
      ...whose,
      at,
      after: options.after,
      result: options.result === null ? null : REPORT_RESULTS.indexOf(options.result),
      limit: options.limit + 1,
    }) as { url: string; tie: string; result: number }[];
    const page = rows.slice(0, options.limit).map((row) => ({ ...row, id: idOfTie(row.tie) }));
    const sent = this.sentOf(
      whose.scope,
      page.map((row) => row.id),
    );
    return {
      urls: page.map((row) => ({
        url: row.url,
        id: row.id,
        result: resultOf(row.result),
        // The report behind a point is in the copy: both are written in one transaction.
        generatedAt: sent.get(row.id)!.generated_at,
      })),
      next: rows.length > options.limit ? page[page.length - 1].url : null,
    };
  }

  /** Every counted report of `url`, oldest first, and how many of its reports are not counted. */
  timeline(scope: string, url: string): { points: TimelinePoint[]; skipped: number } {
    const rows = this.statement(
      `SELECT tie, result, prev_result FROM history_points WHERE scope = ? AND url = ? ORDER BY at, tie`,
    ).all(scope, url) as { tie: string; result: number; prev_result: number | null }[];
    const ids = rows.map((row) => idOfTie(row.tie));
    const sent = this.sentOf(scope, ids);
    const all = this.statement('SELECT count(*) AS n FROM reports WHERE scope = ? AND url = ?').get(
      scope,
      url,
    );
    return {
      points: rows.map((row, i) => {
        const report = sent.get(ids[i])!;
        return {
          id: ids[i],
          result: resultOf(row.result),
          previous: row.prev_result === null ? null : resultOf(row.prev_result),
          generatedAt: report.generated_at,
          privacy: report.privacy,
          project: report.project,
        };
      }),
      skipped: (all as { n: number }).n - rows.length,
    };
  }

  /**
   * Every URL whose result at `to` differs from its result at `from` (from <= to), in URL
   * order; with a project, every URL of the project at `to`, `before` null when it was not the
   * project's at `from`. Only a URL with a report in (from, to] can differ, and its points there
   * say it all: the first one's previous point is where it stood at `from`, the last one where
   * it stands at `to`. So this reads the points between the two instants, and nothing else.
   */
  compare(whose: HistoryScope, from: number, to: number): ResultChange[] {
    // Without a project, the projects are not read (every row crosses into JavaScript; reading
    // them anyway would only be slower).
    const [project, previousProject] = whose.project === null ? ['0', '0'] : ['project', 'prev_project'];
    const rows = this.statement(
      `SELECT url, tie, result, ${project}, prev_result, ${previousProject}, prev_tie
       FROM history_points INDEXED BY history_points_by_time
       WHERE scope = ? AND at > ? AND at <= ? ORDER BY at, tie`,
    )
      .raw()
      .all(whose.scope, from, to) as [
      string,
      string,
      number,
      string,
      number | null,
      string | null,
      string | null,
    ][];
    // Each URL's first and last point in the range, in one pass: a slot per URL, filled by the
    // first point (where it stood before) and overwritten by each later one (where it stands).
    const slots = new Map<string, number>();
    const urls: string[] = [];
    const firsts: (typeof rows)[number][] = [];
    const lasts: (typeof rows)[number][] = [];
    for (const row of rows) {
      const slot = slots.get(row[0]);
      if (slot === undefined) {
        slots.set(row[0], urls.length);
        urls.push(row[0]);
        firsts.push(row);
        lasts.push(row);
      } else lasts[slot] = row;
    }
    const changes: ResultChange[] = [];
    for (let slot = 0; slot < urls.length; slot++) {
      const [, , , , before, beforeProject, beforeTie] = firsts[slot];
      const [, afterTie, after, afterProject] = lasts[slot];
      if (whose.project !== null && afterProject !== whose.project) continue;
      const stood = before !== null && (whose.project === null || beforeProject === whose.project);
      if (stood && before === after) continue;
      changes.push({
        url: urls[slot],
        before: stood ? resultOf(before) : null,
        after: resultOf(after),
        beforeId: stood ? idOfTie(beforeTie!) : null,
        afterId: idOfTie(afterTie),
      });
    }
    const order = codePointOrderFor(changes.map((change) => change.url));
    return changes.sort((a, b) => order(a.url, b.url));
  }

  /** Drops a scope's history at once, in the caller's transaction, before its reports go. */
  clearScope(scope: string): void {
    // Its points go without relinking their neighbours one by one (see history_point_removed).
    this.statement('INSERT OR IGNORE INTO history_clearing (scope) VALUES (?)').run(scope);
    this.statement('DELETE FROM history_points WHERE scope = ?').run(scope);
    this.statement('DELETE FROM history_clearing WHERE scope = ?').run(scope);
    // Changes this transaction made to the sums before, summed at its end into none.
    this.statement('DELETE FROM history_pending WHERE scope = ?').run(scope);
    this.statement('DELETE FROM history_buckets WHERE scope = ?').run(scope);
    this.statement('DELETE FROM history_project_buckets WHERE scope = ?').run(scope);
  }

  /** Drops every scope's history (the cache cleared whole). */
  clearAll(): void {
    const scopes = this.statement('SELECT DISTINCT scope FROM history_buckets').all() as { scope: string }[];
    for (const { scope } of scopes) this.clearScope(scope);
  }

  /** generated_at as sent, privacy and project of some of the scope's reports, by id. */
  private sentOf(
    scope: string,
    ids: readonly string[],
  ): Map<string, { generated_at: string; privacy: unknown; project: string | null }> {
    const rows = this.statement(
      `SELECT id, generated_at, json_extract(record, '$.privacy') AS privacy, project FROM reports
       WHERE scope = ? AND id IN (SELECT value FROM json_each(?))`,
    ).all(scope, JSON.stringify(ids)) as {
      id: string;
      generated_at: string;
      privacy: unknown;
      project: string | null;
    }[];
    return new Map(rows.map((row) => [row.id, row]));
  }
}
