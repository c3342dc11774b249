/**
 * The profiles' cross-process lock: an IMMEDIATE transaction on a small SQLite file beside the
 * profiles file (profiles.lock), used only for its lock (nothing is ever written to it). The OS
 * releases it when its holder exits or is killed, so a crashed process never leaves a stale
 * lock behind.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { AppFailure, appError } from '../../../shared/errors';
import type { Logger } from '../log';
import { errorCode } from '../errorCode';
import { ensurePrivateFile } from '../privateFiles';

/** How long a change waits for another process's change to finish before giving up. */
export const PROFILE_LOCK_WAIT_MS = 10_000;

/** The lock beside a profiles file (exported for the tests that hold it from another process). */
export function profilesLockFile(profilesFile: string): string {
  return join(dirname(profilesFile), 'profiles.lock');
}

export class ProfilesLock {
  private readonly lockFile: string;
  private db: Database.Database | null = null;

  constructor(
    /** The profiles file, named in the sentence when the lock cannot be taken at all. */
    private readonly profilesFile: string,
    private readonly logger: Logger,
    private readonly waitMs: number = PROFILE_LOCK_WAIT_MS,
  ) {
    this.lockFile = profilesLockFile(profilesFile);
  }

  /** Runs `work` holding the lock; waits (busy_timeout) while another process holds it. */
  run<T>(work: () => T): T {
    let db: Database.Database;
    try {
      db = this.db ??= openLock(this.lockFile, this.waitMs);
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      throw this.failure(error);
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

  private failure(error: unknown): AppFailure {
    if (error instanceof AppFailure) return error;
    const code = errorCode(error);
    this.logger.error('Locking the profiles failed.', { code });
    if (code === 'SQLITE_BUSY') {
      return new AppFailure(
        appError(
          'busy',
          `The profiles are being changed by another ReportDesk window or command, which has not finished within ${Math.ceil(this.waitMs / 1000)} seconds. Nothing was changed; try again in a moment.`,
        ),
      );
    }
    return new AppFailure(
      appError(
        'internal',
        `The profiles could not be saved to ${this.profilesFile} (${code}). Check that the disk has space and the folder is writable, then try again.`,
      ),
    );
  }
}

function openLock(file: string, waitMs: number): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  // Created 0600 before SQLite opens it (SQLite alone would make it 0644), as every data-dir file.
  ensurePrivateFile(file);
  return new Database(file, { timeout: waitMs });
}
