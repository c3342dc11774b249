/**
 * The cache's queue of write-throughs (cache/pendingWrites.ts): when each page is written, and
 * that the queue does no work it need not — no write of nothing, one flush per task, no step
 * more once the deferred pages are written (vitest's fake timers count what is scheduled).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PendingWrites, type PendingPage } from '../../../electron/core/cache/pendingWrites';

const page = (n: number): PendingPage => ({ scope: 'p', reports: [], fetchedAt: `t${n}` });

function queue() {
  const written: string[][] = [];
  const pending = new PendingWrites((batch) => written.push(batch.map((one) => one.fetchedAt)));
  return { pending, written };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PendingWrites', () => {
  it('writes nothing when nothing is queued', () => {
    const { pending, written } = queue();
    pending.flush();
    pending.flush(8);
    expect(written).toEqual([]);
  });

  it('writes what one task queued soon in one batch, with one flush scheduled for it', () => {
    const { pending, written } = queue();
    pending.soon(page(1));
    pending.soon(page(2));
    pending.soon(page(3));
    expect(vi.getTimerCount()).toBe(1);
    expect(written).toEqual([]);
    vi.runOnlyPendingTimers();
    expect(written).toEqual([['t1', 't2', 't3']]);
    expect(vi.getTimerCount()).toBe(0);
    // The next task's page gets a flush of its own.
    pending.soon(page(4));
    expect(vi.getTimerCount()).toBe(1);
    vi.runOnlyPendingTimers();
    expect(written).toEqual([['t1', 't2', 't3'], ['t4']]);
  });

  it('writes deferred pages once the walk has paused for 200 ms since its last page', () => {
    const { pending, written } = queue();
    pending.later(page(1));
    vi.advanceTimersByTime(150);
    pending.later(page(2));
    // 200 ms after the first page, but only 50 after the second: the walk goes on.
    vi.advanceTimersByTime(50);
    expect(written).toEqual([]);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(149);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(written).toEqual([['t1', 't2']]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('writes many deferred pages eight per step, each step after the last, and stops when none is left', () => {
    const { pending, written } = queue();
    for (let n = 1; n <= 17; n++) pending.later(page(n));
    vi.advanceTimersByTime(200);
    expect(written.map((batch) => batch.length)).toEqual([8]);
    expect(vi.getTimerCount()).toBe(1);
    // The next step at once (a timer of 0, which Node runs after 1 ms).
    vi.advanceTimersByTime(1);
    expect(written.map((batch) => batch.length)).toEqual([8, 8]);
    vi.advanceTimersByTime(1);
    expect(written.map((batch) => batch.length)).toEqual([8, 8, 1]);
    expect(written.flat()).toEqual(Array.from({ length: 17 }, (_, i) => `t${i + 1}`));
    // Nothing left: no step more is scheduled.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a deferred step that finds its pages written already by a flush schedules none after it', () => {
    const { pending, written } = queue();
    pending.later(page(1));
    pending.flush();
    expect(written).toEqual([['t1']]);
    vi.advanceTimersByTime(200);
    expect(written).toEqual([['t1']]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts the pages not yet written', () => {
    const { pending } = queue();
    pending.later(page(1));
    pending.soon(page(2));
    expect(pending.count).toBe(2);
    vi.runOnlyPendingTimers();
    expect(pending.count).toBe(0);
  });
});
