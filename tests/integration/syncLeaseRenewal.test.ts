/**
 * A run's hold on a scope's sync lease (cache/syncLease.ts, holdSyncLease) on a real SQLite
 * file and vitest's fake clock: the claim is renewed on its timer for as long as the run
 * holds it; once another owner has it, the run notices (on the timer or at a page), says so
 * (`lost`, its signal aborted, LeaseLost), and stops asking for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { holdSyncLease, LeaseLost, type HeldLease } from '../../electron/core/cache/syncLease';

const LEASE_MS = 300;
const EVERY = LEASE_MS / 3;

let dir: string;
let cache: ReportCache;
let renewals: number;
let lease: HeldLease | null;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  dir = mkdtempSync(join(tmpdir(), 'report-desk-lease-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
  // Every renewal the run asks for, counted on the real table.
  renewals = 0;
  const renew = cache.leases.renew.bind(cache.leases);
  cache.leases.renew = (...args) => {
    renewals += 1;
    return renew(...args);
  };
  lease = null;
});
afterEach(() => {
  lease?.release();
  vi.useRealTimers();
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const hold = (signal = new AbortController().signal) =>
  (lease = holdSyncLease({
    leases: cache.leases,
    scope: 'p',
    now: () => new Date(),
    leaseMs: LEASE_MS,
    signal,
  }));
const expiresIn = () => cache.leases.held('p')!.expiresAt - Date.now();
/** Another process finds the claim expired (its clock past it) and takes it. */
const takenOver = () =>
  expect(cache.leases.acquire('p', 'other', Date.now() + 10 * LEASE_MS, LEASE_MS)).toBe(true);

describe('a held lease', () => {
  it('is renewed on its timer, a full lease each time, for as long as the run holds it', () => {
    const held = hold();
    expect(expiresIn()).toBe(LEASE_MS);
    for (let tick = 1; tick <= 12; tick++) {
      vi.advanceTimersByTime(EVERY);
      expect(expiresIn()).toBe(LEASE_MS);
    }
    // Twelve thirds of a lease: four leases long, the claim never ran out.
    expect(renewals).toBe(12);
    expect(held.lost).toBe(false);
    expect(held.signal.aborted).toBe(false);
    expect(cache.leases.acquire('p', 'other', Date.now(), LEASE_MS)).toBe(false);
  });

  it('taken over, is noticed at the next renewal: lost, its signal aborted, and never asked for again', () => {
    const held = hold();
    vi.advanceTimersByTime(EVERY);
    takenOver();
    vi.advanceTimersByTime(EVERY);
    expect(held.lost).toBe(true);
    expect(held.signal.aborted).toBe(true);
    const asked = renewals;
    vi.advanceTimersByTime(10 * EVERY);
    expect(renewals).toBe(asked);
    expect(() => held.claimOrStop()).toThrow(LeaseLost);
    expect(cache.leases.held('p')?.owner).toBe('other');
  });

  it('taken over, is noticed at a page: LeaseLost, lost, its signal aborted, and the timer stops', () => {
    const held = hold();
    held.claimOrStop();
    expect(held.lost).toBe(false);
    takenOver();
    expect(() => held.claimOrStop()).toThrow(LeaseLost);
    expect(held.lost).toBe(true);
    expect(held.signal.aborted).toBe(true);
    const asked = renewals;
    vi.advanceTimersByTime(10 * EVERY);
    expect(renewals).toBe(asked);
    expect(cache.leases.held('p')?.owner).toBe('other');
  });

  it('aborts its signal with the caller’s, and after release is neither renewed nor held', () => {
    const caller = new AbortController();
    const held = hold(caller.signal);
    caller.abort();
    expect(held.signal.aborted).toBe(true);
    expect(held.lost).toBe(false);
    held.release();
    lease = null;
    expect(cache.leases.held('p')).toBeNull();
    const asked = renewals;
    vi.advanceTimersByTime(10 * EVERY);
    expect(renewals).toBe(asked);
  });
});
