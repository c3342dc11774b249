/**
 * The wait between retries of a new cache file's switch to WAL (cache/cacheFile.ts): it doubles
 * from 2 ms to at most 100 ms, and the jitter spreads it from half to one and a half times that.
 * (That the retries end at the 5 s limit is reportCache.test.ts's, against a real lock.)
 */
import { describe, expect, it } from 'vitest';
import { walRetryWaitMs } from '../../../electron/core/cache/cacheFile';

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
