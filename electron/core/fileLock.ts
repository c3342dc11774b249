/**
 * A cross-process lock for a read-modify-write of a file in the data dir: an IMMEDIATE
 * transaction on a small SQLite file used only for its lock (nothing is ever written to it).
 * The OS releases it when its holder exits or is killed, so a crashed process never leaves a
 * stale lock behind. The profiles (profiles.lock) and the update settings (update-settings.lock)
 * each have one; lockFailure words their failures with each store's own subject.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { LockedStoreName } from '../../shared/errorCodes';
import { AppFailure, appError } from '../../shared/errors';
import { errorCode } from './errorCode';
import type { Logger } from './log';
import { ensurePrivateFile } from './privateFiles';
import { storageFailure } from './storageFailure';

/** Whose lock failures these are: the sentences name the store (shared/errorCodes.ts › LockedStoreName). */
export interface LockedStore {
  store: LockedStoreName;
  file: string;
  waitMs: number;
  logger: Logger;
  /** The log line, e.g. 'Locking the profiles failed.' */
  logMessage: string;
}

/**
 * A store's failure to take its lock or save: `busy` after waitMs, `disk_full` / `read_only`
 * when the disk is the cause, `internal` for anything else.
 */
export function lockFailure(store: LockedStore, error: unknown): AppFailure {
  const code = errorCode(error);
  store.logger.error(store.logMessage, { code });
  if (code === 'SQLITE_BUSY') {
    return new AppFailure(
      appError('lock.busy', { store: store.store, seconds: Math.ceil(store.waitMs / 1000) }),
    );
  }
  return (
    storageFailure(error, { folder: dirname(store.file), place: 'data_folder' }) ??
    new AppFailure(appError('lock.save_failed', { store: store.store, file: store.file, code }))
  );
}

export class FileLock {
  private db: Database.Database | null = null;
  /** True while this lock runs a piece of work: a nested run (a repair inside a change) joins it. */
  private held = false;

  constructor(
    private readonly lockFile: string,
    private readonly waitMs: number,
    /** The failure to throw when the lock cannot be taken (anything but an AppFailure). */
    private readonly failure: (error: unknown) => AppFailure,
  ) {}

  /** Runs `work` holding the lock; waits (busy_timeout) while another process holds it. */
  run<T>(work: () => T): T {
    if (this.held) return work();
    let db: Database.Database;
    try {
      db = this.db ??= openLock(this.lockFile, this.waitMs);
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      throw error instanceof AppFailure ? error : this.failure(error);
    }
    this.held = true;
    try {
      return work();
    } finally {
      this.held = false;
      db.exec('COMMIT');
    }
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}

function openLock(file: string, waitMs: number): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  // Created 0600 before SQLite opens it (SQLite alone would make it 0644), as every data-dir file.
  ensurePrivateFile(file);
  return new Database(file, { timeout: waitMs });
}
