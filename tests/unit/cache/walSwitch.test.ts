/**
 * The wait between retries of a new cache file's switch to WAL (cache/cacheFile.ts): it doubles
 * from 2 ms to at most 100 ms, and the jitter spreads it from half to one and a half times that.
 * Which failures are retried: SQLITE_BUSY only (that the retries end at the 5 s limit is
 * reportCache.test.ts's, against a real lock). Here the switch meets better-sqlite3's own
 * SqliteError, as a stand-in for the file's pragma throws it.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { enterWalMode, walRetryWaitMs } from '../../../electron/core/cache/cacheFile';

describe('the wait before a WAL retry', () => {
  it('doubles from 2 ms, and stays at 100 ms from the 7th attempt', () => {
    const middle = [1, 2, 3, 4, 5, 6, 7, 8, 20].map((attempt) => walRetryWaitMs(attempt, 0.5));
    expect(middle).toEqual([2, 4, 8, 16, 32, 64, 100, 100, 100]);
  });

  it('is jittered from half to one and a half times that', () => {
    expect(walRetryWaitMs(3, 0)).toBe(4);
    expect(walRetryWaitMs(3, 0.25)).toBe(6);
    expect(walRetryWaitMs(3, 1)).toBe(12);
    expect(walRetryWaitMs(10, 0)).toBe(50);
    expect(walRetryWaitMs(10, 1)).toBe(150);
  });
});

describe('the switch to WAL', () => {
  /** A database whose first `failures` switches throw `code`, as better-sqlite3 throws. */
  function switching(failures: number, code: string) {
    let calls = 0;
    const db = {
      pragma: (source: string) => {
        expect(source).toBe('journal_mode = WAL');
        calls += 1;
        if (calls <= failures) throw new Database.SqliteError('the file said no', code);
        return 'wal';
      },
    };
    return { db, calls: () => calls };
  }

  it('is tried again while the file answers SQLITE_BUSY', () => {
    const { db, calls } = switching(3, 'SQLITE_BUSY');
    enterWalMode(db);
    expect(calls()).toBe(4);
  });

  it('gives any other failure back at once, untried again', () => {
    const { db, calls } = switching(1, 'SQLITE_IOERR');
    expect(() => enterWalMode(db)).toThrow('the file said no');
    expect(calls()).toBe(1);
  });
});
