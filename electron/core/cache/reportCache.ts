/**
 * The offline cache: one SQLite file (better-sqlite3) holding reports, the account and a few
 * meta values per *scope* (a profile id, or a hash of base URL + key for the CLI). Nothing of
 * one scope is visible from another. Records are stored whole (unknown fields too) as JSON,
 * with the columns the list query filters and sorts on copied out and indexed.
 *
 * No secret is ever written: `password` (and other secret-looking keys) are stripped from
 * every record before it reaches the database.
 */
import type Database from 'better-sqlite3';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CacheStatus } from '../../../shared/contract';
import type { Account, NormalizedListQuery, Report } from '../../../shared/report';
import { errorCode } from '../errorCode';
import { silentLogger, type Logger } from '../log';
import { openDatabase } from './cacheFile';
import { ChangeLog } from './changeLog';
import { HistoryReads } from './history';
import { ListQuery, type CacheQueryResult } from './listQuery';
import { parseRecord, stripSecrets, type ReportRow } from './records';
import { LAST_FULL_SYNC_META, ReportWrites, type PutOptions, type WriteCounts } from './reportWrites';
import { SyncLeases } from './syncLease';
import { PRIVATE_DIR_MODE } from '../privateFiles';

export interface CachedReport {
  report: Report;
  fetchedAt: string;
}

export type { CacheQueryResult } from './listQuery';

/** The cache's part of the contract's CacheStatus; the gateway adds the rest. */
export type CacheStatusInfo = Omit<CacheStatus, 'profileId' | 'syncing'>;

export { CHANGES_SINCE_META, LAST_FULL_SYNC_META, SYNC_ID_META } from './reportWrites';
/** Meta key set when a quick refresh (the newest reports) completes. */
export const LAST_QUICK_REFRESH_META = 'last_quick_refresh_at';

const CORRUPT_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);
/** How long a walk must pause before its deferred pages are written (putReportsLater). */
const DEFERRED_WRITE_PAUSE_MS = 200;
/** Deferred pages written per step: about 90 ms of work, so the process answers between steps. */
const DEFERRED_PAGES_PER_STEP = 8;

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
  /** The next step of the deferred writes (putReportsLater), while one is due. */
  private deferredStep: NodeJS.Timeout | null = null;
  private readonly logger: Logger;
  /** The claim on each scope's sync (syncLease.ts). */
  readonly leases: SyncLeases;
  /** What changed on the service, per scope (changeLog.ts). */
  readonly changes: ChangeLog;
  /** History: URLs per result over time, one URL's reports (history.ts; kept by triggers). */
  readonly history: HistoryReads;
  private readonly writes: ReportWrites;

  private constructor(file: string, db: Database.Database, logger: Logger) {
    this.file = file;
    this.db = db;
    this.logger = logger;
    const statement = (sql: string) => this.statement(sql);
    this.list = new ListQuery(db, statement);
    this.leases = new SyncLeases(statement, (fn) => this.transaction(fn));
    this.changes = new ChangeLog(statement);
    this.history = new HistoryReads(statement);
    this.writes = new ReportWrites({
      statement,
      transaction: (fn) => this.transaction(fn),
      getMeta: (scope, key) => this.getMeta(scope, key),
      changes: this.changes,
    });
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
    // A deferred step still due finds nothing pending (and the file closed) when it runs.
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

  /**
   * putReportsSoon for a walk over many pages (an export, `reports list --all`): the pages are
   * written once the walk has paused for DEFERRED_WRITE_PAUSE_MS, a few per step, so the SQLite
   * work (about 0.1 ms a report) never holds up the walk's next request. Anything that uses
   * this cache meanwhile still writes every pending page first, in order.
   */
  putReportsLater(scope: string, reports: Report[], fetchedAt: string): void {
    this.pendingWrites.push({ scope, reports, fetchedAt });
    this.scheduleDeferredStep(DEFERRED_WRITE_PAUSE_MS);
  }

  /** Pages fetched and not yet written (putReportsSoon's and putReportsLater's). */
  get pendingPages(): number {
    return this.pendingWrites.length;
  }

  private scheduleDeferredStep(delayMs: number): void {
    if (this.deferredStep) clearTimeout(this.deferredStep);
    this.deferredStep = setTimeout(() => {
      this.deferredStep = null;
      this.flushPendingWrites(DEFERRED_PAGES_PER_STEP);
      if (this.pendingWrites.length > 0) this.scheduleDeferredStep(0);
    }, delayMs);
    // Pending pages never keep a process alive: close() writes them.
    this.deferredStep.unref();
  }

  /** Writes the pages queued (the first `limit`), in order. A failed one is logged and dropped (the cache is a copy). */
  private flushPendingWrites(limit = Infinity): void {
    if (this.flushing || this.pendingWrites.length === 0 || !this.db.open) return;
    this.flushing = true;
    const batch = this.pendingWrites.splice(0, limit);
    const writeAll = () => {
      for (const write of batch) {
        try {
          this.putReports(write.scope, write.reports, write.fetchedAt);
        } catch (error) {
          this.dropped(error);
        }
      }
    };
    try {
      // Pages that arrived together (an export's requests in flight) in one transaction: one
      // commit, not one per page; each page its own savepoint, so a failed one is dropped alone.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: one transaction or one per page writes the same rows; only the number of commits differs.
      if (batch.length > 1) this.db.transaction(writeAll).immediate();
      else writeAll();
    } catch (error) {
      this.dropped(error);
    } finally {
      this.flushing = false;
    }
  }

  private dropped(error: unknown): void {
    this.logger.warn('Could not keep a fetched page in the offline cache.', {
      code: (error as { code?: unknown }).code,
    });
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
   * Upserts reports in one transaction (reportWrites.ts). `syncId` marks them as seen by that
   * full sync's pass; without it they count as seen by the scope's unfinished sync, if any.
   * Once the scope had a full sync, what is new or changed is logged (not the user's `own`).
   */
  putReports(scope: string, reports: Report[], fetchedAt: string, options: PutOptions = {}): WriteCounts {
    return this.writes.put(scope, reports, fetchedAt, options);
  }

  putReport(scope: string, report: Report, fetchedAt: string, options: PutOptions = {}): WriteCounts {
    return this.putReports(scope, [report], fetchedAt, options);
  }

  getReport(scope: string, id: string): CachedReport | null {
    const row = this.statement('SELECT id, record, fetched_at FROM reports WHERE scope = ? AND id = ?').get(
      scope,
      id,
    ) as ReportRow | undefined;
    return row ? { report: parseRecord(row), fetchedAt: row.fetched_at } : null;
  }

  /** Removes a report gone from the service (logged), or deleted by the user (`own`, not logged). */
  removeReport(scope: string, id: string, options: { own?: boolean; at?: string } = {}): void {
    this.writes.remove(scope, 'id = ?', [id], options);
  }

  /** The ids of the scope's reports not marked as seen by `syncId`, in id order. */
  unseenIds(scope: string, syncId: string): string[] {
    const rows = this.statement(
      'SELECT id FROM reports WHERE scope = ? AND last_seen_sync IS NOT ? ORDER BY id_sort, id',
    ).all(scope, syncId) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /** Deletes the scope's reports not marked as seen by `syncId` (logged); answers how many. */
  pruneUnseen(scope: string, syncId: string, at = new Date().toISOString()): number {
    return this.writes.remove(scope, 'last_seen_sync IS NOT ?', [syncId], { at });
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
      // History first: it goes at once, not one report at a time.
      this.history.clearScope(scope);
      for (const table of ['reports', 'report_counts', 'accounts', 'meta', 'change_log']) {
        this.statement(`DELETE FROM ${table} WHERE scope = ?`).run(scope);
      }
    });
  }

  /** Every scope that has rows in the cache (profiles and fixed connections). */
  scopes(): string[] {
    const rows = this.statement(
      `SELECT scope FROM reports UNION SELECT scope FROM report_counts UNION SELECT scope FROM accounts
       UNION SELECT scope FROM meta UNION SELECT scope FROM change_log`,
    ).all() as { scope: string }[];
    return rows.map((row) => row.scope);
  }

  clearAll(): void {
    this.transaction(() => {
      this.history.clearAll();
      for (const table of ['reports', 'report_counts', 'accounts', 'meta', 'change_log'])
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
      lastQuickRefreshAt: this.getMeta(scope, LAST_QUICK_REFRESH_META),
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
