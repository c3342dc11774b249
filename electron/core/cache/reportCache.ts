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
import type { Account, NormalizedListQuery, Report } from '../../../shared/report';
import { errorCode } from '../errorCode';
import { silentLogger, type Logger } from '../log';
import { ListQuery, type CacheQueryResult } from './listQuery';
import {
  idSortKey,
  parseRecord,
  projectOf,
  recordJson,
  stripSecrets,
  textOrNull,
  type ReportRow,
} from './records';
import { migrate } from './migrations';
import { ensurePrivateFile, keepPrivate, PRIVATE_DIR_MODE } from '../privateFiles';

export interface CachedReport {
  report: Report;
  fetchedAt: string;
}

export type { CacheQueryResult } from './listQuery';

/** The cache's part of the contract's CacheStatus; the gateway adds the rest. */
export type CacheStatusInfo = Omit<CacheStatus, 'profileId' | 'syncing'>;

/** Meta key set when a full sync completes (read by `status`, written by full sync). */
export const LAST_FULL_SYNC_META = 'last_full_sync_at';
/** Meta key holding the id of an unfinished full sync; reports written meanwhile count as seen. */
export const SYNC_ID_META = 'sync_id';

const CORRUPT_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/** How long opening waits for other processes to release the file (busy_timeout and the WAL switch). */
const OPEN_WAIT_MS = 5_000;

/** The age shown for cached data is minute-grained, so an unchanged row's fetch time is too. */
const FETCHED_AT_GRANULARITY_MS = 60_000;

export { MIGRATIONS } from './migrations';

export class ReportCache {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** The list query, the overview's counts and their remembered search matches. */
  private readonly list: ListQuery;
  /** Write-throughs answered already and written right after (see putReportsSoon). */
  private readonly pendingWrites: { scope: string; reports: Report[]; fetchedAt: string }[] = [];
  private flushScheduled = false;
  private flushing = false;
  private readonly logger: Logger;

  private constructor(file: string, db: Database.Database, logger: Logger) {
    this.file = file;
    this.db = db;
    this.logger = logger;
    this.list = new ListQuery(db, (sql) => this.statement(sql));
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
      const code = errorCode(error);
      if (!CORRUPT_CODES.has(code)) throw error;
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
   * Reports per (project, result) matching the filters: the overview's numbers (see
   * listQuery.ts).
   */
  resultCounts(
    scope: string,
    q: Pick<NormalizedListQuery, 'project' | 'result' | 'search'>,
  ): { project: string; result: string; n: number }[] {
    return this.list.resultCounts(scope, q);
  }

  /** One page of the list, with the service's semantics (see listQuery.ts). */
  query(scope: string, q: NormalizedListQuery): CacheQueryResult {
    return this.list.query(scope, q);
  }

  /** Distinct non-empty project names of the scope, sorted. */
  projects(scope: string, limit = 500): string[] {
    return this.list.projects(scope, limit);
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
      reportCount: this.list.countedRows(scope, '', null),
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
    db.pragma(`busy_timeout = ${OPEN_WAIT_MS}`);
    enterWalMode(db);
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
 * Switches a new file to WAL (a no-op once it is). The switch needs the file's exclusive lock;
 * when several processes start on a new data dir at once, SQLite answers SQLITE_BUSY at once to
 * all but one of them instead of calling the busy handler, which could deadlock
 * (https://www.sqlite.org/c3ref/busy_handler.html); it does the same while another program
 * holds the new file's write lock. A retry usually finds WAL already (the winner switched);
 * all of them end within OPEN_WAIT_MS, as the busy handler does.
 */
function enterWalMode(db: Database.Database): void {
  const giveUpAt = Date.now() + OPEN_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (errorCode(error) !== 'SQLITE_BUSY' || Date.now() >= giveUpAt) throw error;
      // Jittered, so that processes that collided once do not collide again in step.
      sleepSync(Math.min(100, 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}

/** Blocks this thread: opening is synchronous, and each wait is 150 ms at most. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
