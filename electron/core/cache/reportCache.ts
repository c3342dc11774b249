/**
 * The offline cache: one SQLite file (better-sqlite3) holding reports, the account and a few
 * meta values per *scope* (a profile id, or a hash of base URL + key for the CLI). Nothing of
 * one scope is visible from another. Records are stored whole (unknown fields too) as JSON,
 * with the columns the list query filters and sorts on copied out and indexed.
 *
 * No secret is ever written: secret-looking keys (`password`…) are stripped from every record.
 *
 * It only holds what can be fetched again (issue 30): the change log and seen marks live in
 * local.sqlite (`local`), reached through `changes`. A damaged file — at open, or from any
 * statement later — is set aside and a new one started (../guardedDatabase.ts): a read is
 * answered again from the new file, a write of fetched reports is written again there, and a
 * transaction that was cut short fails with reason `cache_reset` (the sync service starts its
 * run again). A file another process replaced is followed. In a read-only folder reads come
 * from a private copy and writes are refused in a sentence.
 */
import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CacheStatus } from '../../../shared/contract';
import type { Account, NormalizedListQuery, Report } from '../../../shared/report';
import type { SetAsideEvent } from '../guardedDatabase';
import { LOCAL_FILE, LocalStore } from '../local/localStore';
import { silentLogger, type Logger } from '../log';
import { PRIVATE_DIR_MODE } from '../privateFiles';
import { isDamage } from '../sqliteFile';
import { readAccount, writeAccount } from './accountRows';
import { CacheConnection } from './cacheConnection';
import { clearAll, clearCopy, scopesOf, type ScopeContext } from './cacheScopes';
import { PendingWrites, type PendingPage } from './pendingWrites';
import type { ChangeLog } from './changeLog';
import { HistoryReads } from './history';
import { ListQuery, type CacheQueryResult } from './listQuery';
import { parseRecord, type ReportRow } from './records';
import { LAST_FULL_SYNC_META, ReportWrites, type PutOptions, type WriteCounts } from './reportWrites';
import { SyncLeases } from './syncLease';

export interface CachedReport {
  report: Report;
  fetchedAt: string;
}

export type { CacheQueryResult } from './listQuery';

/** The cache's part of the contract's CacheStatus; the gateway adds the rest. */
export type CacheStatusInfo = Omit<CacheStatus, 'profileId' | 'syncing'>;

export { LAST_FULL_SYNC_META, SYNC_ID_META } from './reportWrites';
/** Meta key set when a quick refresh (the newest reports) completes. */
export const LAST_QUICK_REFRESH_META = 'last_quick_refresh_at';

export interface CacheOpenOptions {
  logger?: Logger;
  /** local.sqlite, where the change log lives; by default opened beside the cache (and closed with it). */
  local?: LocalStore;
  /** The last run on the folder did not end cleanly: check the file before trusting it. */
  check?: boolean;
  /** Told each time a damaged file was set aside (at open, or later while in use). */
  onSetAside?: (event: SetAsideEvent) => void;
}

export { cacheResetFailure, isCacheReset } from './cacheConnection';

export { MIGRATIONS } from './migrations';

export class ReportCache {
  readonly file: string;
  /** The file, kept usable: damage set aside, another process's replacement followed (cacheConnection.ts). */
  private readonly connection: CacheConnection;
  /** The list query, the overview's counts and their remembered search matches (made again for a new file). */
  private list: ListQuery;
  /** Write-throughs answered already and written right after (see putReportsSoon). */
  private readonly pending = new PendingWrites((batch) => this.writePending(batch));
  private readonly logger: Logger;
  /** The claim on each scope's sync (syncLease.ts). */
  readonly leases: SyncLeases;
  /** local.sqlite: the change log, seen marks and repair notices. */
  readonly local: LocalStore;
  private readonly ownsLocal: boolean;
  /** History: URLs per result over time, one URL's reports (history.ts; kept by triggers). */
  readonly history: HistoryReads;
  private readonly writes: ReportWrites;
  /** What clearing scopes needs (cacheScopes.ts). */
  private readonly scoped: ScopeContext;

  private constructor(
    file: string,
    logger: Logger,
    local: LocalStore,
    ownsLocal: boolean,
    options: CacheOpenOptions,
  ) {
    this.file = file;
    this.logger = logger;
    this.local = local;
    this.ownsLocal = ownsLocal;
    const statement = (sql: string) => this.statement(sql);
    this.connection = new CacheConnection({
      file,
      check: options.check ?? false,
      logger,
      local,
      onSetAside: options.onSetAside,
      onRenew: () => (this.list = new ListQuery(this.connection.db, statement)),
    });
    this.list = new ListQuery(this.connection.db, statement);
    this.leases = new SyncLeases(statement, (fn) => this.transaction(fn));
    this.history = new HistoryReads(statement);
    this.writes = new ReportWrites({
      statement,
      transaction: (fn) => this.transaction(fn),
      getMeta: (scope, key) => this.getMeta(scope, key),
      outbox: this.connection.outbox,
    });
    this.scoped = {
      statement,
      transaction: (fn) => this.transaction(fn),
      connection: this.connection,
      local,
      history: this.history,
    };
  }

  /**
   * Opens (or creates) the cache file and brings its schema up to date. A file that is not a
   * database, or is damaged beyond use, is kept aside as `<file>.corrupt-<time>` and a fresh
   * cache is started: the cache only holds copies of the service's data.
   */
  static open(file: string, options: CacheOpenOptions = {}): ReportCache {
    const logger = (options.logger ?? silentLogger).child('cache');
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    const local =
      options.local ?? LocalStore.open(join(dirname(file), LOCAL_FILE), { logger, check: options.check });
    try {
      return new ReportCache(file, logger, local, options.local === undefined, options);
    } catch (error) {
      if (options.local === undefined) local.close();
      throw error;
    }
  }

  /** What changed on the service, per scope (changeLog.ts, in local.sqlite). */
  get changes(): ChangeLog {
    return this.local.changes;
  }

  /** Why writes are refused (a read-only folder: reads come from a private copy), or null. */
  get readOnly(): { folder: string; code: string } | null {
    return this.connection.readOnly;
  }

  /** Bumped each time another file took this one's place (a damaged one set aside). */
  get fileGeneration(): number {
    return this.connection.fileGeneration;
  }

  close(): void {
    // A deferred step still due finds nothing pending (and the file closed) when it runs.
    this.flushPendingWrites();
    this.connection.close();
    if (this.ownsLocal) this.local.close();
  }

  /**
   * putReports, done right after the current task instead of before the caller answers: the
   * gateway's write-through of a page it has fetched. Every later use of this cache (a read,
   * a write, close) writes pending pages first, so whatever this process reads from the cache
   * after an answer includes that answer: what is shown is what is cached.
   */
  putReportsSoon(scope: string, reports: Report[], fetchedAt: string): void {
    // A read-only folder keeps no copy of what is shown.
    if (!this.readOnly) this.pending.soon({ scope, reports, fetchedAt });
  }

  /**
   * putReportsSoon for a walk over many pages (an export, `reports list --all`): the pages are
   * written once the walk has paused for 200 ms, a few per step, so the SQLite work (about
   * 0.1 ms a report) never holds up the walk's next request. Anything that uses this cache
   * meanwhile still writes every pending page first, in order.
   */
  putReportsLater(scope: string, reports: Report[], fetchedAt: string): void {
    if (!this.readOnly) this.pending.later({ scope, reports, fetchedAt });
  }

  /** Pages fetched and not yet written (putReportsSoon's and putReportsLater's). */
  get pendingPages(): number {
    return this.pending.count;
  }

  /** Writes the pages queued (the first `limit`), in order. */
  private flushPendingWrites(limit = Infinity): void {
    if (this.connection.db.open) this.pending.flush(limit);
  }

  /** Writes a batch of pending pages. A failed one is logged and dropped (the cache is a copy). */
  private writePending(batch: PendingPage[]): void {
    const writeAll = () => {
      for (const write of batch) {
        try {
          this.putReports(write.scope, write.reports, write.fetchedAt);
        } catch (error) {
          // A damaged file ends the whole batch: it is written again into the new one.
          if (isDamage(error)) throw error;
          this.dropped(error);
        }
      }
    };
    try {
      // Pages that arrived together (an export's requests in flight) in one transaction: one
      // commit, not one per page; each page its own savepoint, so a failed one is dropped alone.
      this.connection.againAfterReset(() => this.transaction(writeAll));
    } catch (error) {
      this.dropped(error);
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
   * wait out busy_timeout instead of failing at once when a read turns into a write. Refused
   * in a read-only folder; a damaged file fails it with `cache_reset` (cacheConnection.ts);
   * once committed, the change-log entries it queued move to local.sqlite.
   */
  transaction<T>(fn: () => T): T {
    this.flushPendingWrites();
    return this.connection.transaction(fn);
  }

  /** A read of history (history.ts) at the outermost level: on a damaged file, once more on the new one. */
  readHistory<T>(work: (history: HistoryReads) => T): T {
    return this.connection.read(() => work(this.history));
  }

  // ---- Reports --------------------------------------------------------------------------

  /**
   * Upserts reports in one transaction (reportWrites.ts). `syncId` marks them as seen by that
   * full sync's pass; without it they count as seen by the scope's unfinished sync, if any.
   * Once the scope had a full sync, what is new or changed is logged (not the user's `own`).
   */
  putReports(scope: string, reports: Report[], fetchedAt: string, options: PutOptions = {}): WriteCounts {
    return this.connection.againAfterReset(() => this.writes.put(scope, reports, fetchedAt, options));
  }

  putReport(scope: string, report: Report, fetchedAt: string, options: PutOptions = {}): WriteCounts {
    return this.putReports(scope, [report], fetchedAt, options);
  }

  getReport(scope: string, id: string): CachedReport | null {
    const row = this.connection.read(
      () =>
        this.statement('SELECT id, record, fetched_at FROM reports WHERE scope = ? AND id = ?').get(
          scope,
          id,
        ) as ReportRow | undefined,
    );
    return row ? { report: parseRecord(row), fetchedAt: row.fetched_at } : null;
  }

  /** Removes a report gone from the service (logged), or deleted by the user (`own`, not logged). */
  removeReport(scope: string, id: string, options: { own?: boolean; at?: string } = {}): void {
    this.connection.againAfterReset(() => this.writes.remove(scope, 'id = ?', [id], options));
  }

  /** The ids of the scope's reports not marked as seen by `syncId`, in id order. */
  unseenIds(scope: string, syncId: string): string[] {
    const rows = this.connection.read(
      () =>
        this.statement(
          'SELECT id FROM reports WHERE scope = ? AND last_seen_sync IS NOT ? ORDER BY id_sort, id',
        ).all(scope, syncId) as { id: string }[],
    );
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
    return this.connection.read(() => this.list.resultCounts(scope, q));
  }

  /** One page of the list, with the service's semantics (see listQuery.ts). */
  query(scope: string, q: NormalizedListQuery): CacheQueryResult {
    return this.connection.read(() => this.list.query(scope, q));
  }

  /** Distinct non-empty project names of the scope, sorted. */
  projects(scope: string, limit = 500): string[] {
    return this.connection.read(() => this.list.projects(scope, limit));
  }

  putAccount(scope: string, account: Account, fetchedAt: string): void {
    if (this.readOnly) return;
    this.connection.read(() => writeAccount((sql) => this.statement(sql), scope, account, fetchedAt));
  }

  getAccount(scope: string): { account: Account; fetchedAt: string } | null {
    return this.connection.read(() => readAccount((sql) => this.statement(sql), scope));
  }

  // ---- Scope, meta, housekeeping --------------------------------------------------------

  /**
   * Forgets everything of a scope: its offline copy, and its change log and seen marks (a
   * profile removed, another service or account behind it).
   */
  clearScope(scope: string): void {
    this.clearCopy(scope);
    this.local.transaction(() => this.local.changes.clear(scope));
  }

  /** Deletes a scope's offline copy (`cache clear`); its change log and seen marks stay (cacheScopes.ts). */
  clearCopy(scope: string): void {
    clearCopy(this.scoped, scope);
  }

  /** Every scope that has rows in the cache or the change log (profiles and fixed connections). */
  scopes(): string[] {
    return scopesOf(this.scoped);
  }

  /** Deletes every scope's copy, change log and seen marks. */
  clearAll(): void {
    clearAll(this.scoped);
  }

  status(scope: string): CacheStatusInfo {
    return this.connection.read(() => {
      const pageCount = this.connection.db.pragma('page_count', { simple: true }) as number;
      const pageSize = this.connection.db.pragma('page_size', { simple: true }) as number;
      return {
        reportCount: this.list.countedRows(scope, '', null),
        sizeBytes: pageCount * pageSize,
        lastFullSyncAt: this.getMeta(scope, LAST_FULL_SYNC_META),
        lastQuickRefreshAt: this.getMeta(scope, LAST_QUICK_REFRESH_META),
      };
    });
  }

  getMeta(scope: string, key: string): string | null {
    const row = this.connection.read(
      () =>
        this.statement('SELECT value FROM meta WHERE scope = ? AND key = ?').get(scope, key) as
          { value: string } | undefined,
    );
    return row?.value ?? null;
  }

  /** Writes a meta value (inside the caller's transaction, or on its own); a read-only folder keeps none. */
  setMeta(scope: string, key: string, value: string | null): void {
    if (this.readOnly && !this.connection.db.inTransaction) return;
    this.connection.read(() => this.writeMeta(scope, key, value));
  }

  private writeMeta(scope: string, key: string, value: string | null): void {
    if (value === null) {
      this.statement('DELETE FROM meta WHERE scope = ? AND key = ?').run(scope, key);
    } else {
      this.statement(
        'INSERT INTO meta (scope, key, value) VALUES (?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value',
      ).run(scope, key, value);
    }
  }

  /**
   * Inside a write transaction: fails it as a damaged file would (the file set aside, the
   * transaction with `cache_reset`) unless PRAGMA quick_check finds nothing wrong.
   */
  assertIntact(): void {
    this.connection.assertIntact();
  }

  /** 'ok' when PRAGMA integrity_check finds nothing wrong, else its findings, one per line (damage that stops the check throws SQLite's error). */
  integrityCheck(): string {
    return this.connection.integrityCheck();
  }

  private statement(sql: string): Database.Statement {
    // Pages already shown are written before anything else touches the cache.
    this.flushPendingWrites();
    return this.connection.statement(sql);
  }
}
