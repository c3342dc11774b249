/**
 * The cache's connection to its file, kept usable whatever happens to the file (issue 30): a
 * damaged file — at open, or from any statement later — is set aside and a new one opened
 * (../guardedDatabase.ts). What the cache does then depends on the work:
 *
 * - a read (`read`) is answered again from the new file (empty of what was lost);
 * - a write of fetched data (`againAfterReset`) is written again into it;
 * - a transaction cut short (`transaction`) fails with reason `cache_reset` — its caller (the
 *   sync service) starts its run again, since what it had claimed (a lease, a progress) was in
 *   the damaged file; so does one that finds the file replaced by another process before it
 *   starts (its caller prepared statements of the old file).
 *
 * A file another process has set aside meanwhile is followed (opened again by path) before a
 * write, and at most once a second before a read. In a read-only folder the file is read from
 * a private copy and every transaction is refused with the folder's `read_only` sentence.
 *
 * It also carries the change log's entries to local.sqlite after each outermost commit (the
 * outbox, changeOutbox.ts), and at open moves a change log an older version kept in the file.
 */
import { failureCode } from '../errorCode';
import type Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { AppFailure, appError } from '../../../shared/errors';
import { GuardedDatabase, type SetAsideEvent } from '../guardedDatabase';
import type { LocalStore } from '../local/localStore';
import type { Logger } from '../log';
import { isDamage } from '../sqliteFile';
import { storageFailure } from '../storageFailure';
import { CACHE_ID_META, ChangeOutbox, moveLegacyChangeLog } from './changeOutbox';
import { flushHistory } from './historyPending';
import { migrate } from './migrations';

/** The failure of a transaction cut short because the file was damaged (it was set aside meanwhile). */
export function cacheResetFailure(): AppFailure {
  return new AppFailure(appError('cache.reset', {}, { reason: 'cache_reset' }));
}

export function isCacheReset(error: unknown): boolean {
  return error instanceof AppFailure && error.error.reason === 'cache_reset';
}

export interface CacheConnectionOptions {
  file: string;
  check: boolean;
  logger: Logger;
  /** Where the change log lives. */
  local: LocalStore;
  onSetAside?: (event: SetAsideEvent) => void;
  /** Another file took this one's place: what was made for the old one must be made again. */
  onRenew: () => void;
}

export class CacheConnection {
  private readonly guard: GuardedDatabase;
  /** This file's random id, read once per file (it names the outbox's entries). */
  private cacheId: string | null = null;
  /** A write's change-log entries, on their way to local.sqlite. */
  readonly outbox: ChangeOutbox;

  constructor(private readonly options: CacheConnectionOptions) {
    this.guard = new GuardedDatabase({
      file: options.file,
      label: 'The cache file',
      migrate,
      synchronous: 'NORMAL',
      check: options.check,
      countLost: (db) => (db.prepare('SELECT count(*) AS n FROM reports').get() as { n: number }).n,
      onSetAside: (event) => options.onSetAside?.(event),
      onReopen: () => {
        this.cacheId = null;
        options.onRenew();
      },
      logger: options.logger,
    });
    this.outbox = new ChangeOutbox(
      (sql) => this.statement(sql),
      () => (this.cacheId ??= this.fileId()),
    );
    if (!this.readOnly) {
      moveLegacyChangeLog(this.guard.db, options.local, this.fileId());
      this.moveChanges();
    }
  }

  private fileId(): string {
    // v7 gives every file its id; one that lost it (a hand-edited file) gets a new one, so no
    // two files ever name their entries alike (the change log would ignore the second's).
    this.statement(
      "INSERT OR IGNORE INTO meta (scope, key, value) VALUES ('', ?, lower(hex(randomblob(16))))",
    ).run(CACHE_ID_META);
    const row = this.statement("SELECT value FROM meta WHERE scope = '' AND key = ?").get(CACHE_ID_META);
    return (row as { value: string }).value;
  }

  get db(): Database.Database {
    return this.guard.db;
  }

  /** Why writes are refused (a read-only folder), or null. */
  get readOnly(): { folder: string; code: string } | null {
    return this.guard.readOnly;
  }

  /** Bumped each time another file took this one's place. */
  get fileGeneration(): number {
    return this.guard.generation;
  }

  /** The statement for `sql`, prepared once per file. */
  statement(sql: string): Database.Statement {
    return this.guard.statement(sql);
  }

  /**
   * One write transaction (nested calls are savepoints; only the outermost is guarded):
   * refused in a read-only folder; a damaged file is set aside and it fails with `cache_reset`.
   */
  transaction<T>(fn: () => T): T {
    const db = this.guard.db;
    if (db.inTransaction) return db.transaction(fn).immediate();
    this.guard.assertWritable();
    // Another process set the file aside: what the caller prepared belongs to the old one, so
    // this transaction does not run; its caller runs again on the new file (cache_reset).
    if (this.guard.follow(true)) throw cacheResetFailure();
    let result: T;
    try {
      // The history's sums are brought up to date before the commit (historyPending.ts).
      result = this.guard.db
        .transaction(() => {
          const done = fn();
          flushHistory((sql) => this.statement(sql));
          return done;
        })
        .immediate();
    } catch (error) {
      if (!isDamage(error)) {
        throw storageFailure(error, { folder: dirname(this.options.file), place: 'data_folder' }) ?? error;
      }
      this.guard.recover(error);
      throw cacheResetFailure();
    }
    this.moveChanges();
    return result;
  }

  /** Inside a transaction: fails it as damage (set aside, `cache_reset`) unless the file checks ok. */
  assertIntact(): void {
    this.guard.assertIntact();
  }

  /** 'ok' when PRAGMA integrity_check finds nothing wrong, else its findings, one per line (damage that stops the check throws SQLite's error). */
  integrityCheck(): string {
    const rows = this.db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join('\n');
  }

  /** A read at the outermost level; on a damaged file, once more on the new one. */
  read<T>(work: () => T): T {
    return this.guard.read(work);
  }

  /** A write of fetched data; cut short by a damaged file, once more into the new one. */
  againAfterReset<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      // Only the outermost transaction fails with cache_reset, so this is never inside one.
      if (!isCacheReset(error)) throw error;
      return work();
    }
  }

  close(): void {
    this.guard.close();
  }

  /**
   * Moves the change-log entries waiting in the outbox into local.sqlite. A failure there (a
   * full disk, a read-only or damaged local file) leaves them waiting for the next commit: the
   * rows they describe are committed already.
   */
  private moveChanges(): void {
    try {
      this.outbox.moveTo(this.options.local);
    } catch (error) {
      this.options.logger.warn(
        'The change log could not be written; its entries wait in the cache for the next write.',
        { code: failureCode(error) },
      );
    }
  }
}
