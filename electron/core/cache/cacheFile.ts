/**
 * Opening the cache's SQLite file: private modes, waiting for other processes, WAL, schema
 * migrations. ReportCache.open adds the recovery of a damaged file.
 */
import Database from 'better-sqlite3';
import { errorCode } from '../errorCode';
import { ensurePrivateFile, keepPrivate } from '../privateFiles';
import { migrate } from './migrations';

/** How long opening waits for other processes to release the file (busy_timeout and the WAL switch). */
const OPEN_WAIT_MS = 5_000;

export function openDatabase(file: string): Database.Database {
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
