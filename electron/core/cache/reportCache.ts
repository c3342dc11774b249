/**
 * The offline cache: one SQLite file (better-sqlite3) holding reports, the account and a few
 * meta values per *scope* (a profile id, or a hash of base URL + key for the CLI). Nothing of
 * one scope is visible from another. Records are stored whole (unknown fields too) as JSON,
 * with the columns the list query filters and sorts on copied out and indexed.
 *
 * No secret is ever written: `password` (and other secret-looking keys) are stripped from
 * every record before it reaches the database.
 */
import Database from 'better-sqlite3';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CacheStatus } from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import type { Account, NormalizedListQuery, Report, ReportPage } from '../../../shared/report';
import { silentLogger, type Logger } from '../log';
import { choosePlan, walkIndexFor } from './listPlan';
import { idSortKey, projectOf, recordJson, stripSecrets, textOrNull } from './records';
import { ensurePrivateFile, keepPrivate, PRIVATE_DIR_MODE } from '../privateFiles';

export interface CachedReport {
  report: Report;
  fetchedAt: string;
}

export interface CacheQueryResult {
  page: ReportPage;
  /** The OLDEST fetched_at among the returned rows (the age of what is shown); null when no rows. */
  fetchedAt: string | null;
}

/** The cache's part of the contract's CacheStatus; the gateway adds the rest. */
export type CacheStatusInfo = Omit<CacheStatus, 'profileId' | 'syncing'>;

/** Meta key set when a full sync completes (read by `status`, written by full sync). */
export const LAST_FULL_SYNC_META = 'last_full_sync_at';
/** Meta key holding the id of an unfinished full sync; reports written meanwhile count as seen. */
export const SYNC_ID_META = 'sync_id';

/**
 * Ordered migrations; PRAGMA user_version is the number applied. Append, never edit: a file
 * written by an older ReportDesk is brought up to date step by step.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE reports (
    scope          TEXT NOT NULL,
    id             TEXT NOT NULL,
    -- No declared type on purpose: integers for numeric ids, text otherwise (see idSortKey).
    id_sort        NOT NULL,
    url            TEXT NOT NULL,
    url_lower      TEXT NOT NULL,
    result         TEXT,
    project        TEXT,
    generated_at   TEXT,
    fetched_at     TEXT NOT NULL,
    last_seen_sync TEXT,
    -- Last: the big JSON stays out of the way of scans that read only the columns above.
    record         TEXT NOT NULL,
    PRIMARY KEY (scope, id)
  );
  -- One index per sort order, scope first, ending with the id tie-break, so a page is an
  -- index walk with no sort step.
  CREATE INDEX reports_by_id ON reports (scope, id_sort, id);
  CREATE INDEX reports_by_generated_at ON reports (scope, generated_at, id_sort, id);
  CREATE INDEX reports_by_url ON reports (scope, url, id_sort, id);
  CREATE INDEX reports_by_result ON reports (scope, result, id_sort, id);
  CREATE INDEX reports_by_project ON reports (scope, project, id_sort, id);
  -- Substring search: a trigram index finds the candidate rows of a 3+ character search
  -- without scanning the scope (shorter searches scan; they match most rows anyway).
  CREATE VIRTUAL TABLE reports_url_trigrams USING fts5 (
    url_lower, content = '', contentless_delete = 1, tokenize = 'trigram'
  );
  CREATE TRIGGER reports_trigrams_insert AFTER INSERT ON reports BEGIN
    INSERT INTO reports_url_trigrams (rowid, url_lower) VALUES (new.rowid, new.url_lower);
  END;
  CREATE TRIGGER reports_trigrams_delete AFTER DELETE ON reports BEGIN
    DELETE FROM reports_url_trigrams WHERE rowid = old.rowid;
  END;
  CREATE TRIGGER reports_trigrams_update AFTER UPDATE OF url_lower ON reports
  WHEN old.url_lower IS NOT new.url_lower BEGIN
    DELETE FROM reports_url_trigrams WHERE rowid = old.rowid;
    INSERT INTO reports_url_trigrams (rowid, url_lower) VALUES (new.rowid, new.url_lower);
  END;

  -- Row counts per (scope, project, result), kept by triggers, so the total of an unsearched
  -- list is a lookup in a few dozen rows instead of a count over 100,000 index entries.
  CREATE TABLE report_counts (
    scope   TEXT NOT NULL,
    project TEXT NOT NULL,
    result  TEXT NOT NULL,
    n       INTEGER NOT NULL,
    PRIMARY KEY (scope, project, result)
  );
  CREATE TRIGGER reports_counted_insert AFTER INSERT ON reports BEGIN
    INSERT INTO report_counts (scope, project, result, n)
    VALUES (new.scope, coalesce(new.project, ''), coalesce(new.result, ''), 1)
    ON CONFLICT (scope, project, result) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER reports_counted_delete AFTER DELETE ON reports BEGIN
    UPDATE report_counts SET n = n - 1
    WHERE scope = old.scope AND project = coalesce(old.project, '') AND result = coalesce(old.result, '');
  END;
  CREATE TRIGGER reports_counted_update AFTER UPDATE OF project, result ON reports
  WHEN old.project IS NOT new.project OR old.result IS NOT new.result BEGIN
    UPDATE report_counts SET n = n - 1
    WHERE scope = old.scope AND project = coalesce(old.project, '') AND result = coalesce(old.result, '');
    INSERT INTO report_counts (scope, project, result, n)
    VALUES (new.scope, coalesce(new.project, ''), coalesce(new.result, ''), 1)
    ON CONFLICT (scope, project, result) DO UPDATE SET n = n + 1;
  END;

  -- Fixed planner statistics (the shape of a large cache: many rows per scope, few per
  -- project, a third per result), so plans do not depend on when ANALYZE last ran.
  ANALYZE sqlite_schema;
  DELETE FROM sqlite_stat1 WHERE tbl = 'reports';
  INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
    ('reports', 'sqlite_autoindex_reports_1', '100000 50000 1'),
    ('reports', 'reports_by_id', '100000 50000 1 1'),
    ('reports', 'reports_by_generated_at', '100000 50000 2 1 1'),
    ('reports', 'reports_by_url', '100000 50000 2 1 1'),
    ('reports', 'reports_by_result', '100000 50000 30000 1 1'),
    ('reports', 'reports_by_project', '100000 50000 100 1 1');
  ANALYZE sqlite_schema;

  CREATE TABLE accounts (
    scope      TEXT PRIMARY KEY,
    record     TEXT NOT NULL,
    fetched_at TEXT NOT NULL
  );

  CREATE TABLE meta (
    scope TEXT NOT NULL,
    key   TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (scope, key)
  );
  `,
  // 2: the claim on a scope's full sync, shared by every process on the file (see fullSync.ts).
  `
  CREATE TABLE sync_leases (
    scope      TEXT PRIMARY KEY,
    -- A random id per running sync; only its owner renews or releases the row.
    owner      TEXT NOT NULL,
    -- Milliseconds since the epoch; a row past it is free to take (its owner stalled or died).
    expires_at INTEGER NOT NULL
  );
  `,
  // 3: the list query's planner (listPlan.ts). The search index carries the scope
  // and the filters as well, case-sensitive over the lowercased url, so a trigram phrase is an
  // exact substring match and a search's total is counted in the index alone, without reading
  // a row. Each scope, result and project value gets a number in report_search_keys and is
  // indexed as '<' + one character made of it + '>': exactly one trigram, matching that value
  // only (the triggers avoid INSERT OR IGNORE: an upsert's own conflict handling would
  // override it). The sort indexes end with project and result, so a walk checks those filters in the
  // index, without reading the row.
  `
  DROP TRIGGER reports_trigrams_insert;
  DROP TRIGGER reports_trigrams_delete;
  DROP TRIGGER reports_trigrams_update;
  DROP TABLE reports_url_trigrams;
  CREATE TABLE report_search_keys (
    id    INTEGER PRIMARY KEY,
    kind  TEXT NOT NULL,
    value TEXT NOT NULL,
    UNIQUE (kind, value)
  );
  CREATE VIRTUAL TABLE report_search USING fts5 (
    url, scope_key, result_key, project_key,
    content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
  );
  CREATE TRIGGER report_search_insert AFTER INSERT ON reports BEGIN
    INSERT INTO report_search_keys (kind, value) SELECT 's', new.scope
    WHERE new.scope IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 's' AND value = new.scope);
    INSERT INTO report_search_keys (kind, value) SELECT 'r', new.result
    WHERE new.result IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 'r' AND value = new.result);
    INSERT INTO report_search_keys (kind, value) SELECT 'p', new.project
    WHERE new.project IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 'p' AND value = new.project);
    INSERT INTO report_search (rowid, url, scope_key, result_key, project_key) VALUES (
      new.rowid, new.url_lower, (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 's' AND value = new.scope),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'r' AND value = new.result),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'p' AND value = new.project));
  END;
  CREATE TRIGGER report_search_delete AFTER DELETE ON reports BEGIN
    DELETE FROM report_search WHERE rowid = old.rowid;
  END;
  CREATE TRIGGER report_search_update AFTER UPDATE OF url_lower, result, project ON reports
  WHEN old.url_lower IS NOT new.url_lower OR old.result IS NOT new.result
    OR old.project IS NOT new.project BEGIN
    DELETE FROM report_search WHERE rowid = old.rowid;
    INSERT INTO report_search_keys (kind, value) SELECT 's', new.scope
    WHERE new.scope IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 's' AND value = new.scope);
    INSERT INTO report_search_keys (kind, value) SELECT 'r', new.result
    WHERE new.result IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 'r' AND value = new.result);
    INSERT INTO report_search_keys (kind, value) SELECT 'p', new.project
    WHERE new.project IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 'p' AND value = new.project);
    INSERT INTO report_search (rowid, url, scope_key, result_key, project_key) VALUES (
      new.rowid, new.url_lower, (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 's' AND value = new.scope),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'r' AND value = new.result),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'p' AND value = new.project));
  END;
  INSERT OR IGNORE INTO report_search_keys (kind, value)
    SELECT 's', scope FROM reports UNION SELECT 'r', result FROM reports
    UNION SELECT 'p', project FROM reports;
  INSERT INTO report_search (rowid, url, scope_key, result_key, project_key)
    SELECT rowid, url_lower, (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 's' AND value = reports.scope),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'r' AND value = reports.result),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'p' AND value = reports.project)
    FROM reports;

  DROP INDEX reports_by_id;
  DROP INDEX reports_by_generated_at;
  DROP INDEX reports_by_url;
  DROP INDEX reports_by_result;
  DROP INDEX reports_by_project;
  CREATE INDEX reports_by_id ON reports (scope, id_sort, id, project, result);
  CREATE INDEX reports_by_generated_at ON reports (scope, generated_at, id_sort, id, project, result);
  CREATE INDEX reports_by_url ON reports (scope, url, id_sort, id, project, result);
  CREATE INDEX reports_by_result ON reports (scope, result, id_sort, id, project);
  CREATE INDEX reports_by_project ON reports (scope, project, id_sort, id, result);
  DELETE FROM sqlite_stat1 WHERE tbl = 'reports';
  INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
    ('reports', 'sqlite_autoindex_reports_1', '100000 50000 1'),
    ('reports', 'reports_by_id', '100000 50000 1 1 1 1'),
    ('reports', 'reports_by_generated_at', '100000 50000 2 1 1 1 1'),
    ('reports', 'reports_by_url', '100000 50000 2 1 1 1 1'),
    ('reports', 'reports_by_result', '100000 50000 30000 1 1 1'),
    ('reports', 'reports_by_project', '100000 50000 100 1 1 1');
  ANALYZE sqlite_schema;
  `,
];

const ORDER_COLUMNS: Record<NormalizedListQuery['sort_by'], string[]> = {
  id: ['id_sort', 'id'],
  generated_at: ['generated_at', 'id_sort', 'id'],
  url: ['url', 'id_sort', 'id'],
  result: ['result', 'id_sort', 'id'],
};

/** Searches remembered at most (a handful paged or re-sorted; a million rowids is ~8 MB of JSON). */
const REMEMBERED_SEARCHES = 16;

interface SearchMatches {
  total: number;
  /** The trigram index's query (null: no row can match, or a search too short for it). */
  match: string | null;
  /** The matching rowids as a JSON array, found when a plan first needs them. */
  rowids?: string;
}

const CORRUPT_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/** The age shown for cached data is minute-grained, so an unchanged row's fetch time is too. */
const FETCHED_AT_GRANULARITY_MS = 60_000;

interface ReportRow {
  id: string;
  record: string;
  fetched_at: string;
}

export class ReportCache {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** Search matches in the database as it was at `matchesVersion` (see rememberedMatches). */
  private readonly matches = new Map<string, SearchMatches>();
  // Stryker disable next-line StringLiteral: any start value that is not "<n>/<n>" differs from the first version read, as '' does
  private matchesVersion = '';
  /** Write-throughs answered already and written right after (see putReportsSoon). */
  private readonly pendingWrites: { scope: string; reports: Report[]; fetchedAt: string }[] = [];
  private flushScheduled = false;
  private flushing = false;
  private readonly logger: Logger;

  private constructor(file: string, db: Database.Database, logger: Logger) {
    this.file = file;
    this.db = db;
    this.logger = logger;
  }

  /**
   * Opens (or creates) the cache file and brings its schema up to date. A file that is not a
   * database, or is damaged beyond use, is kept aside as `<file>.corrupt-<time>` and a fresh
   * cache is started: the cache only holds copies of the service's data.
   */
  static open(file: string, options: { logger?: Logger } = {}): ReportCache {
    const logger = (options.logger ?? silentLogger).child('cache');
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      return new ReportCache(file, openDatabase(file), logger);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !CORRUPT_CODES.has(code)) throw error;
      const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '')}`;
      logger.warn('The cache file is damaged; keeping it aside and starting a new one.', { aside, code });
      renameSync(file, aside);
      for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
      return new ReportCache(file, openDatabase(file), logger);
    }
  }

  close(): void {
    this.flushPendingWrites();
    if (this.db.open) this.db.close();
  }

  /**
   * putReports, done right after the current task instead of before the caller answers: the
   * gateway's write-through of a page it has fetched. Every later use of this cache (a read,
   * a write, close) writes pending pages first, so whatever this process reads from the cache
   * after an answer includes that answer: what is shown is what is cached.
   */
  putReportsSoon(scope: string, reports: Report[], fetchedAt: string): void {
    this.pendingWrites.push({ scope, reports, fetchedAt });
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushPendingWrites();
    });
  }

  /** Writes the pages putReportsSoon queued, in order. A failed one is logged and dropped (the cache is a copy). */
  private flushPendingWrites(): void {
    if (this.flushing || this.pendingWrites.length === 0 || !this.db.open) return;
    this.flushing = true;
    try {
      for (let write = this.pendingWrites.shift(); write; write = this.pendingWrites.shift()) {
        try {
          this.putReports(write.scope, write.reports, write.fetchedAt);
        } catch (error) {
          this.logger.warn('Could not keep a fetched page in the offline cache.', {
            code: (error as { code?: unknown }).code,
          });
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Runs `fn` in one write transaction (nested calls become savepoints). IMMEDIATE takes the
   * write lock up front, so another process writing (the app and a CLI sync) makes this one
   * wait out busy_timeout instead of failing at once when a read turns into a write.
   */
  transaction<T>(fn: () => T): T {
    this.flushPendingWrites();
    return this.db.transaction(fn).immediate();
  }

  // ---- Reports --------------------------------------------------------------------------

  /**
   * Upserts reports in one transaction. `syncId` marks them as seen by that full sync;
   * without it they count as seen by the scope's unfinished sync, if any (they exist on the
   * service, so a sync in progress must not prune them).
   */
  putReports(scope: string, reports: Report[], fetchedAt: string, syncId?: string): void {
    const upsert = this.statement(`
      INSERT INTO reports (scope, id, id_sort, url, url_lower, result, project, generated_at,
                           fetched_at, last_seen_sync, record)
      VALUES (@scope, @id, @idSort, @url, @urlLower, @result, @project, @generatedAt,
              @fetchedAt, @seen, @record)
      ON CONFLICT (scope, id) DO UPDATE SET
        id_sort = excluded.id_sort, url = excluded.url, url_lower = excluded.url_lower,
        result = excluded.result, project = excluded.project, generated_at = excluded.generated_at,
        fetched_at = excluded.fetched_at, record = excluded.record,
        last_seen_sync = coalesce(excluded.last_seen_sync, reports.last_seen_sync)`);
    // Most refreshes bring back reports that have not changed, often seconds after the last
    // time. Such a row is left alone (no page written, no index or trigger touched) unless its
    // fetch time is more than a minute old or a full sync must mark it as seen.
    const existing = this.statement(`
      SELECT id, record, fetched_at, last_seen_sync FROM reports
      WHERE scope = ? AND id IN (SELECT value FROM json_each(?))`);
    const touch = this.statement(`
      UPDATE reports SET fetched_at = @fetchedAt, last_seen_sync = coalesce(@seen, last_seen_sync)
      WHERE scope = @scope AND id = @id`);
    const staleBefore = new Date(Date.parse(fetchedAt) - FETCHED_AT_GRANULARITY_MS).toISOString();
    this.transaction(() => {
      const seen = syncId ?? this.getMeta(scope, SYNC_ID_META);
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
        const url = typeof report.url === 'string' ? report.url : '';
        upsert.run({
          scope,
          id,
          fetchedAt,
          seen,
          record,
          idSort: idSortKey(id),
          url,
          urlLower: url.toLowerCase(),
          result: textOrNull(report.result),
          project: projectOf(report.project),
          generatedAt: textOrNull(report.generated_at),
        });
      }
    });
  }

  putReport(scope: string, report: Report, fetchedAt: string): void {
    this.putReports(scope, [report], fetchedAt);
  }

  getReport(scope: string, id: string): CachedReport | null {
    const row = this.statement('SELECT id, record, fetched_at FROM reports WHERE scope = ? AND id = ?').get(
      scope,
      id,
    ) as ReportRow | undefined;
    return row ? { report: parseRecord(row), fetchedAt: row.fetched_at } : null;
  }

  removeReport(scope: string, id: string): void {
    this.statement('DELETE FROM reports WHERE scope = ? AND id = ?').run(scope, id);
  }

  /** Deletes the scope's reports not marked as seen by `syncId`; answers how many. */
  pruneUnseen(scope: string, syncId: string): number {
    return this.statement('DELETE FROM reports WHERE scope = ? AND last_seen_sync IS NOT ?').run(
      scope,
      syncId,
    ).changes;
  }

  /**
   * The WHERE clause of a list query's filters (project, result, search): the list and the
   * overview share it. instr() matches the text literally, so % and _ in a search are plain
   * characters; the trigram index only narrows the rows (see query).
   */
  private filterSql(
    scope: string,
    q: Pick<NormalizedListQuery, 'project' | 'result' | 'search'>,
  ): { whereSql: string; params: Record<string, unknown> } {
    const filters = ['scope = @scope'];
    const params: Record<string, unknown> = { scope };
    if (q.project !== '') {
      filters.push('project = @project');
      params.project = q.project;
    }
    if (q.result !== null) {
      filters.push('result = @result');
      params.result = q.result;
    }
    if (q.search !== '') {
      filters.push('instr(url_lower, @search) > 0');
      params.search = q.search.toLowerCase();
    }
    return { whereSql: filters.join(' AND '), params };
  }

  /**
   * Reports per (project, result) matching the filters: the overview's numbers. Without a
   * search the trigger-kept counts answer; with one, the matching rows are counted.
   */
  resultCounts(
    scope: string,
    q: Pick<NormalizedListQuery, 'project' | 'result' | 'search'>,
  ): { project: string; result: string; n: number }[] {
    const { whereSql, params } = this.filterSql(scope, q);
    const sql =
      q.search === ''
        ? `SELECT project, result, sum(n) AS n FROM report_counts WHERE ${whereSql} GROUP BY project, result HAVING sum(n) > 0`
        : `SELECT coalesce(project, '') AS project, coalesce(result, '') AS result, count(*) AS n
           FROM reports WHERE ${whereSql} GROUP BY 1, 2`;
    return this.statement(sql).all(params) as { project: string; result: string; n: number }[];
  }

  /**
   * One page of the list, with the service's semantics (see report-service-api.md §4.1).
   * The total comes first, from the cheapest exact source: the trigger-kept counts without a
   * search, the trigram index alone with one. Then listPlan.ts picks how to read the page.
   */
  query(scope: string, q: NormalizedListQuery): CacheQueryResult {
    const { whereSql, params } = this.filterSql(scope, q);
    const search = q.search.toLowerCase();
    // Fewer than 3 characters is below the trigram index's reach: those rows are checked one by one.
    const trigramSearch = [...search].length >= 3;

    // A search's matches: their number, and (for a trigram search, when a plan needs them)
    // their rowids, found once and remembered while the database is unchanged.
    const matches =
      search === ''
        ? null
        : this.rememberedMatches([scope, search, q.project, q.result], () =>
            trigramSearch
              ? this.trigramMatches(scope, search, q)
              : {
                  total: (
                    this.statement(`SELECT count(*) AS n FROM reports WHERE ${whereSql}`).get(params) as {
                      n: number;
                    }
                  ).n,
                  match: null,
                },
          );
    const total = matches ? matches.total : this.countedRows(scope, q.project, q.result);
    const { leading } = walkIndexFor(q);
    const rangeRows = this.countedRows(
      scope,
      leading === 'project' ? q.project : '',
      leading === 'result' ? q.result : null,
    );
    const filteredRows = search === '' ? total : this.countedRows(scope, q.project, q.result);
    const plan = choosePlan({ q, total, rangeRows, filteredRows, trigramSearch });

    let rows: ReportRow[] = [];
    if (plan.kind !== 'empty') {
      const order = (direction: 'ASC' | 'DESC') =>
        ORDER_COLUMNS[q.sort_by].map((column) => `${column} ${direction}`).join(', ');
      const listed = q.sort === 'asc' ? 'ASC' : 'DESC';
      const walked = plan.kind === 'walk' && plan.reverse ? (listed === 'ASC' ? 'DESC' : 'ASC') : listed;
      const inMatches = 'rowid IN (SELECT value FROM json_each(@rowids))';
      const source =
        plan.kind === 'walk' && plan.search === 'trigram-set'
          ? `reports INDEXED BY ${plan.index} WHERE ${whereSql.replace('instr(url_lower, @search) > 0', inMatches)}`
          : plan.kind === 'walk'
            ? `reports INDEXED BY ${plan.index} WHERE ${whereSql}`
            : plan.kind === 'trigram'
              ? `reports NOT INDEXED WHERE ${inMatches} AND ${whereSql}`
              : `reports WHERE ${whereSql}`;
      if (plan.kind === 'trigram' || (plan.kind === 'walk' && plan.search === 'trigram-set')) {
        if (matches) matches.rowids ??= this.trigramRowids(matches.match);
        params.rowids = matches?.rowids ?? '[]';
      }
      // Order and skip on the narrow columns first; read the JSON records of this page only.
      rows = this.statement(
        `SELECT id, record, fetched_at FROM reports WHERE rowid IN (
           SELECT rowid FROM ${source} ORDER BY ${order(walked)} LIMIT @take OFFSET @skip
         ) ORDER BY ${order(listed)}`,
      ).all({ ...params, take: plan.take, skip: plan.skip }) as ReportRow[];
    }

    let oldest: string | null = null;
    for (const row of rows) if (oldest === null || row.fetched_at < oldest) oldest = row.fetched_at;
    return {
      page: {
        reports: rows.map(parseRecord),
        page: q.page,
        perPage: q.per_page,
        total,
        lastPage: Math.max(1, Math.ceil(total / q.per_page)),
      },
      fetchedAt: oldest,
    };
  }

  /** Rows of the scope with these filters ('' and null: any), from the trigger-kept counts. */
  private countedRows(scope: string, project: string, result: string | null): number {
    const where = ['scope = @scope'];
    if (project !== '') where.push('project = @project');
    if (result !== null) where.push('result = @result');
    return (
      this.statement(`SELECT coalesce(sum(n), 0) AS n FROM report_counts WHERE ${where.join(' AND ')}`).get({
        scope,
        ...(project !== '' ? { project } : {}),
        ...(result !== null ? { result } : {}),
      }) as { n: number }
    ).n;
  }

  /**
   * A search's matches, remembered while the database is unchanged: paging through a search
   * or sorting it another way finds them once. Unchanged means no commit by another
   * connection (PRAGMA data_version) and no row changed by this one (total_changes()).
   */
  private rememberedMatches(filters: readonly unknown[], find: () => SearchMatches): SearchMatches {
    const version = `${this.db.pragma('data_version', { simple: true }) as number}/${
      (this.statement('SELECT total_changes() AS n').get() as { n: number }).n
    }`;
    if (version !== this.matchesVersion) {
      this.matches.clear();
      this.matchesVersion = version;
    }
    const key = JSON.stringify(filters);
    let found = this.matches.get(key);
    if (found === undefined) {
      found = find();
      if (this.matches.size >= REMEMBERED_SEARCHES) this.matches.clear();
      this.matches.set(key, found);
    }
    return found;
  }

  /**
   * A search's matches, found in the trigram index alone (exact: see migration 2), without
   * reading a row.
   */
  private trigramMatches(scope: string, search: string, q: NormalizedListQuery): SearchMatches {
    const match = this.trigramMatch(scope, search, q);
    if (match === null) return { total: 0, match };
    const total = (
      this.statement('SELECT count(*) AS n FROM report_search WHERE report_search MATCH ?').get(match) as {
        n: number;
      }
    ).n;
    return { total, match };
  }

  /**
   * The rowids matching a trigram query, as a JSON array for json_each. Asked only by the
   * plans that need them (few matches, or a walk in URL order), not to count: a common word's
   * hundreds of thousands of rowids would cost more than the count.
   */
  private trigramRowids(match: string | null): string {
    if (match === null) return '[]';
    const rowids = this.statement('SELECT rowid FROM report_search WHERE report_search MATCH ?')
      .pluck()
      .all(match) as number[];
    return JSON.stringify(rowids);
  }

  /**
   * The FTS5 query for a search and the filters; null when a filter's value is one no row has.
   * The scope's key is left out while no other scope has rows (it would match every row).
   */
  private trigramMatch(scope: string, search: string, q: NormalizedListQuery): string | null {
    const parts = [`url : "${search.replace(/"/g, '""')}"`];
    const filters: ['r' | 'p' | 's', string][] = [];
    if (q.project !== '') filters.push(['p', q.project]);
    if (q.result !== null) filters.push(['r', q.result]);
    const shared = this.statement(
      'SELECT EXISTS (SELECT 1 FROM report_counts WHERE scope != ? AND n > 0) AS shared',
    ).get(scope) as { shared: number };
    if (shared.shared) filters.push(['s', scope]);
    const column = { r: 'result_key', p: 'project_key', s: 'scope_key' };
    for (const [kind, value] of filters) {
      const row = this.statement('SELECT id FROM report_search_keys WHERE kind = ? AND value = ?').get(
        kind,
        value,
      ) as { id: number } | undefined;
      // A value no row ever had: nothing can match.
      if (!row) return null;
      // The same key as the triggers of migration 2: one character, so one trigram.
      parts.push(`${column[kind]} : "<${String.fromCodePoint(65536 + row.id)}>"`);
    }
    return parts.join(' AND ');
  }

  /** Distinct non-empty project names of the scope, sorted. */
  projects(scope: string, limit = 500): string[] {
    const rows = this.statement(
      `SELECT project FROM report_counts WHERE scope = ? AND project != ''
       GROUP BY project HAVING sum(n) > 0 ORDER BY project LIMIT ?`,
    ).all(scope, limit) as { project: string }[];
    return rows.map((row) => row.project);
  }

  // ---- Sync lease -------------------------------------------------------------------------

  /**
   * Claims the scope's full sync for `owner` until `nowMs + leaseMs`, in one IMMEDIATE
   * transaction, so two processes never both win. Answers false while another owner's claim
   * has not expired; an expired claim (its process died or stalled) is taken over.
   */
  acquireSyncLease(scope: string, owner: string, nowMs: number, leaseMs: number): boolean {
    return this.transaction(() => {
      const held = this.syncLease(scope);
      if (held && held.owner !== owner && held.expiresAt > nowMs) return false;
      this.statement(
        `INSERT INTO sync_leases (scope, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (scope) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at`,
      ).run(scope, owner, nowMs + leaseMs);
      return true;
    });
  }

  /** Extends `owner`'s claim; false when it is no longer theirs (expired and taken over, or cleared). */
  renewSyncLease(scope: string, owner: string, nowMs: number, leaseMs: number): boolean {
    return (
      this.statement('UPDATE sync_leases SET expires_at = ? WHERE scope = ? AND owner = ?').run(
        nowMs + leaseMs,
        scope,
        owner,
      ).changes === 1
    );
  }

  releaseSyncLease(scope: string, owner: string): void {
    this.statement('DELETE FROM sync_leases WHERE scope = ? AND owner = ?').run(scope, owner);
  }

  /** The scope's claim as stored (possibly expired), or null. */
  syncLease(scope: string): { owner: string; expiresAt: number } | null {
    const row = this.statement('SELECT owner, expires_at FROM sync_leases WHERE scope = ?').get(scope) as
      { owner: string; expires_at: number } | undefined;
    return row ? { owner: row.owner, expiresAt: row.expires_at } : null;
  }

  // ---- Account --------------------------------------------------------------------------

  putAccount(scope: string, account: Account, fetchedAt: string): void {
    this.statement(
      `INSERT INTO accounts (scope, record, fetched_at) VALUES (?, ?, ?)
       ON CONFLICT (scope) DO UPDATE SET record = excluded.record, fetched_at = excluded.fetched_at`,
    ).run(scope, JSON.stringify(stripSecrets(account)), fetchedAt);
  }

  getAccount(scope: string): { account: Account; fetchedAt: string } | null {
    const row = this.statement('SELECT record, fetched_at FROM accounts WHERE scope = ?').get(scope) as
      { record: string; fetched_at: string } | undefined;
    return row ? { account: JSON.parse(row.record) as Account, fetchedAt: row.fetched_at } : null;
  }

  // ---- Scope, meta, housekeeping --------------------------------------------------------

  clearScope(scope: string): void {
    this.transaction(() => {
      for (const table of ['reports', 'report_counts', 'accounts', 'meta']) {
        this.statement(`DELETE FROM ${table} WHERE scope = ?`).run(scope);
      }
    });
  }

  /** Every scope that has rows in the cache (profiles and fixed connections). */
  scopes(): string[] {
    const rows = this.statement(
      `SELECT scope FROM reports UNION SELECT scope FROM report_counts UNION SELECT scope FROM accounts
       UNION SELECT scope FROM meta`,
    ).all() as { scope: string }[];
    return rows.map((row) => row.scope);
  }

  clearAll(): void {
    this.transaction(() => {
      for (const table of ['reports', 'report_counts', 'accounts', 'meta'])
        this.statement(`DELETE FROM ${table}`).run();
      // Rows deleted above took their trigrams along; this also drops any left by a failed write.
      this.statement('DELETE FROM report_search').run();
    });
  }

  status(scope: string): CacheStatusInfo {
    const pageCount = this.db.pragma('page_count', { simple: true }) as number;
    const pageSize = this.db.pragma('page_size', { simple: true }) as number;
    return {
      reportCount: this.countedRows(scope, '', null),
      sizeBytes: pageCount * pageSize,
      lastFullSyncAt: this.getMeta(scope, LAST_FULL_SYNC_META),
    };
  }

  getMeta(scope: string, key: string): string | null {
    const row = this.statement('SELECT value FROM meta WHERE scope = ? AND key = ?').get(scope, key) as
      { value: string } | undefined;
    return row?.value ?? null;
  }

  setMeta(scope: string, key: string, value: string | null): void {
    if (value === null) {
      this.statement('DELETE FROM meta WHERE scope = ? AND key = ?').run(scope, key);
    } else {
      this.statement(
        'INSERT INTO meta (scope, key, value) VALUES (?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value',
      ).run(scope, key, value);
    }
  }

  /** 'ok' when PRAGMA integrity_check finds nothing wrong, else its findings, one per line. */
  integrityCheck(): string {
    const rows = this.db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join('\n');
  }

  private statement(sql: string): Database.Statement {
    // Pages already shown are written before anything else touches the cache.
    this.flushPendingWrites();
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

function openDatabase(file: string): Database.Database {
  // Private reports: 0600 before SQLite creates the file, so its -wal and -shm inherit it.
  ensurePrivateFile(file);
  for (const suffix of ['-wal', '-shm']) keepPrivate(file + suffix);
  const db = new Database(file);
  try {
    // First, so that every step below waits for another process instead of failing.
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL: a killed process never leaves a damaged file; only a power cut may lose
    // the last commits, which the next sync fetches again.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Brings the schema up to date in one IMMEDIATE transaction, reading the version inside it:
 * two processes opening a new file at once must not both create the tables.
 */
function migrate(db: Database.Database, file: string): void {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    assertKnownVersion(version, file);
    for (let next = version; next < MIGRATIONS.length; next++) {
      db.exec(MIGRATIONS[next]);
      db.pragma(`user_version = ${next + 1}`);
    }
  }).immediate();
}

function assertKnownVersion(version: number, file: string): void {
  if (version > MIGRATIONS.length) {
    throw new AppFailure(
      appError(
        'internal',
        `The offline cache (${file}) was written by a newer version of ReportDesk. Update ReportDesk, or clear the cache to start a new one.`,
      ),
    );
  }
}

function parseRecord(row: ReportRow): Report {
  const report = JSON.parse(row.record) as Report;
  report.id = row.id;
  return report;
}
