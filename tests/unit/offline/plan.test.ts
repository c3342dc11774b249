/** What "Keep available offline" runs and when (core/offline/plan.ts): pure, times in ms. */
import { describe, expect, it } from 'vitest';
import { FULL_SYNC_EVERY_MS, planRuns, type ProfileSchedule } from '../../../electron/core/offline/plan';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const MIN = 60_000;

function profile(overrides: Partial<ProfileSchedule> & { id?: string } = {}): ProfileSchedule {
  return {
    id: 'p',
    options: { keepOffline: true, refreshMinutes: 15, notifyBad: false },
    lastQuickAt: NOW - 5 * MIN,
    lastFullAt: NOW - 60 * MIN,
    quickAsked: false,
    notBefore: 0,
    unreachable: false,
    ...overrides,
  };
}

describe('planRuns', () => {
  it('nothing due: sleeps until the next quick refresh (15 minutes after the last check)', () => {
    expect(planRuns([profile()], NOW, false)).toEqual({
      runs: [],
      waitingForPower: [],
      nextAt: NOW + 10 * MIN,
    });
  });

  it('a quick refresh falls due at its interval, from the later of the last quick refresh and full sync', () => {
    expect(planRuns([profile({ lastQuickAt: NOW - 15 * MIN })], NOW, false).runs).toEqual([
      { profileId: 'p', mode: 'quick' },
    ]);
    const fullLater = profile({ lastQuickAt: NOW - 30 * MIN, lastFullAt: NOW - 2 * MIN });
    expect(planRuns([fullLater], NOW, false)).toMatchObject({ runs: [], nextAt: NOW + 13 * MIN });
    for (const minutes of [5, 60] as const) {
      const p = profile({
        options: { keepOffline: true, refreshMinutes: minutes, notifyBad: false },
        lastQuickAt: NOW - 2 * MIN,
      });
      expect(planRuns([p], NOW, false).nextAt).toBe(NOW - 2 * MIN + minutes * MIN);
    }
  });

  it('asked (the app started, the service is back): a quick refresh now, or at once when never run', () => {
    expect(planRuns([profile({ quickAsked: true })], NOW, false).runs).toEqual([
      { profileId: 'p', mode: 'quick' },
    ]);
    expect(planRuns([profile({ lastQuickAt: null, lastFullAt: NOW - MIN })], NOW, false).runs).toEqual([]);
    expect(planRuns([profile({ lastQuickAt: null, lastFullAt: null })], NOW, false).runs).toEqual([
      { profileId: 'p', mode: 'full' },
    ]);
  });

  it('a check never done counts as long ago: the other time decides, or now', () => {
    const neverQuick = profile({ lastQuickAt: null, lastFullAt: NOW - 20 * MIN });
    expect(planRuns([neverQuick], NOW, false).runs).toEqual([{ profileId: 'p', mode: 'quick' }]);
    // On battery a profile never fully synced waits, but its newest reports are checked.
    const neverFull = profile({ lastQuickAt: NOW - 20 * MIN, lastFullAt: null });
    expect(planRuns([neverFull], NOW, true)).toEqual({
      runs: [{ profileId: 'p', mode: 'quick' }],
      waitingForPower: ['p'],
      nextAt: null,
    });
    const recentQuick = profile({ lastQuickAt: NOW - 2 * MIN, lastFullAt: null });
    expect(planRuns([recentQuick], NOW, true)).toEqual({
      runs: [],
      waitingForPower: ['p'],
      nextAt: NOW + 13 * MIN,
    });
  });

  it('a full sync once a day, instead of a quick refresh that round', () => {
    const due = profile({ lastFullAt: NOW - FULL_SYNC_EVERY_MS, quickAsked: true });
    expect(planRuns([due], NOW, false)).toEqual({
      runs: [{ profileId: 'p', mode: 'full' }],
      waitingForPower: [],
      nextAt: null,
    });
    const notYet = profile({ lastFullAt: NOW - FULL_SYNC_EVERY_MS + 1, lastQuickAt: NOW });
    expect(planRuns([notYet], NOW, false).nextAt).toBe(NOW + 1);
  });

  it('on battery the full sync waits for mains power; the quick refresh still runs', () => {
    const due = profile({ lastFullAt: NOW - FULL_SYNC_EVERY_MS, lastQuickAt: NOW - 20 * MIN });
    expect(planRuns([due], NOW, true)).toEqual({
      runs: [{ profileId: 'p', mode: 'quick' }],
      waitingForPower: ['p'],
      nextAt: null,
    });
    const recent = profile({ lastFullAt: NOW - FULL_SYNC_EVERY_MS, lastQuickAt: NOW - MIN });
    expect(planRuns([recent], NOW, true)).toEqual({
      runs: [],
      waitingForPower: ['p'],
      nextAt: NOW + 14 * MIN,
    });
  });

  it('a profile held back by a back-off still says its full sync waits for power', () => {
    const held = profile({ lastFullAt: NOW - FULL_SYNC_EVERY_MS, quickAsked: true, notBefore: NOW + MIN });
    expect(planRuns([held], NOW, true)).toEqual({ runs: [], waitingForPower: ['p'], nextAt: NOW + MIN });
    expect(planRuns([held], NOW, false)).toEqual({ runs: [], waitingForPower: [], nextAt: NOW + MIN });
  });

  it('"only by hand": no quick refresh at all, asked or not; the daily full sync stays', () => {
    const manual = { keepOffline: true, refreshMinutes: null, notifyBad: false } as const;
    expect(planRuns([profile({ options: manual, quickAsked: true, lastQuickAt: null })], NOW, false)).toEqual(
      {
        runs: [],
        waitingForPower: [],
        nextAt: NOW - 60 * MIN + FULL_SYNC_EVERY_MS,
      },
    );
    expect(planRuns([profile({ options: manual, lastFullAt: null })], NOW, false).runs).toEqual([
      { profileId: 'p', mode: 'full' },
    ]);
  });

  it('skips profiles that keep nothing offline, cannot reach their service, or wait out a back-off', () => {
    const off = profile({
      id: 'off',
      options: { keepOffline: false, refreshMinutes: 5, notifyBad: true },
      quickAsked: true,
    });
    const away = profile({ id: 'away', unreachable: true, quickAsked: true });
    const waiting = profile({ id: 'wait', quickAsked: true, notBefore: NOW + 3 * MIN });
    const ready = profile({ id: 'ready', quickAsked: true, notBefore: NOW });
    expect(planRuns([off, away, waiting, ready], NOW, false)).toEqual({
      runs: [{ profileId: 'ready', mode: 'quick' }],
      waitingForPower: [],
      nextAt: NOW + 3 * MIN,
    });
  });

  it('plans every profile, and sleeps until the earliest due time', () => {
    const a = profile({ id: 'a', lastQuickAt: NOW - 14 * MIN });
    const b = profile({ id: 'b', lastQuickAt: NOW - 10 * MIN });
    const c = profile({ id: 'c', lastQuickAt: null, lastFullAt: null });
    expect(planRuns([a, b, c], NOW, false)).toEqual({
      runs: [{ profileId: 'c', mode: 'full' }],
      waitingForPower: [],
      nextAt: NOW + MIN,
    });
    expect(planRuns([], NOW, false)).toEqual({ runs: [], waitingForPower: [], nextAt: null });
  });
});
