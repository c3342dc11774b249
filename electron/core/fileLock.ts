/**
 * A cross-process lock for a read-modify-write of a file in the data dir: an IMMEDIATE
 * transaction on a small SQLite file used only for its lock (nothing is ever written to it).
 * The OS releases it when its holder exits or is killed, so a crashed process never leaves a
 * stale lock behind. The profiles (profiles.lock) and the update settings (update-settings.lock)
 * each have one; each words its own failures.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { AppFailure } from '../../shared/errors';
import { ensurePrivateFile } from './privateFiles';

export class FileLock {
  private db: Database.Database | null = null;

  constructor(
    private readonly lockFile: string,
    private readonly waitMs: number,
    /** The failure to throw when the lock cannot be taken (anything but an AppFailure). */
    private readonly failure: (error: unknown) => AppFailure,
  ) {}

  /** Runs `work` holding the lock; waits (busy_timeout) while another process holds it. */
  run<T>(work: () => T): T {
    let db: Database.Database;
    try {
      db = this.db ??= openLock(this.lockFile, this.waitMs);
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      throw error instanceof AppFailure ? error : this.failure(error);
    }
    try {
      return work();
    } finally {
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
