/**
 * Opening one of ReportDesk's SQLite files (the cache; local.sqlite through the same door):
 * private modes, waiting for other processes, WAL, the file's durability, schema migrations.
 * ReportCache.open (and LocalStore.open) add the recovery of a damaged file (../sqliteFile.ts).
 */
import Database from 'better-sqlite3';
import { errorCode } from '../errorCode';
import { ensurePrivateFile, keepPrivate } from '../privateFiles';
import { migrate } from './migrations';

/** How long opening waits for other processes to release the file (busy_timeout and the WAL switch). */
const OPEN_WAIT_MS = 5_000;

export interface OpenOptions {
  /** Brings the schema up to date (in one IMMEDIATE transaction). */
  migrate: (db: Database.Database, file: string) => void;
  /**
   * NORMAL for what can be fetched again: with WAL a killed process never leaves a damaged
   * file, and a power cut may lose only the last commits, which the next sync fetches again.
   * FULL for what cannot: every commit is on the disk before it returns.
   */
  synchronous: 'NORMAL' | 'FULL';
}

const CACHE_FILE: OpenOptions = { migrate, synchronous: 'NORMAL' };

export function openDatabase(file: string, options: OpenOptions = CACHE_FILE): Database.Database {
  // Private reports: 0600 before SQLite creates the file, so its -wal and -shm inherit it.
  ensurePrivateFile(file);
  for (const suffix of ['-wal', '-shm']) keepPrivate(file + suffix);
  const db = new Database(file);
  try {
    // First, so that every step below waits for another process instead of failing.
    db.pragma(`busy_timeout = ${OPEN_WAIT_MS}`);
    enterWalMode(db);
    db.pragma(`synchronous = ${options.synchronous}`);
    db.pragma('foreign_keys = ON');
    options.migrate(db, file);
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
export function enterWalMode(db: Pick<Database.Database, 'pragma'>): void {
  const giveUpAt = Date.now() + OPEN_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (errorCode(error) !== 'SQLITE_BUSY') throw error;
      if (Date.now() >= giveUpAt) throw error;
      sleepSync(walRetryWaitMs(attempt, Math.random()));
    }
  }
}

/**
 * The wait before WAL retry `attempt` (1, 2, …): doubling from 2 ms up to 100 ms, jittered by
 * `random` (0 to 1) between half and one and a half times that, so that processes that
 * collided once do not collide again in step.
 */
export function walRetryWaitMs(attempt: number, random: number): number {
  return Math.min(100, 2 ** attempt) * (0.5 + random);
}

/** Blocks this thread: opening is synchronous, and each wait is 150 ms at most. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
