/**
 * The scheduler of "Keep available offline" (core/offline/scheduler.ts) on a fake clock, with a
 * fake power source that behaves as Electron's powerMonitor is documented to
 * (https://www.electronjs.org/docs/latest/api/power-monitor: `isOnBatteryPower()` answers on
 * every platform; the 'on-ac' and 'on-battery' events come on macOS and Windows only, so the
 * scheduler asks `onBattery()` at every look instead of trusting events alone), the real event
 * hub for connectivity, and a run that records what it was asked and moves the profile's
 * "last ran" time as the cache would.
 */
import { describe, expect, it } from 'vitest';
import type { ConnectivityState, OfflineOptions, SyncSummary } from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import { EventHub } from '../../../electron/core/events';
import type { PowerSource } from '../../../electron/core/offline/power';
import {
  BUSY_RETRY_MS,
  FIRST_BACKOFF_MS,
  MAX_SLEEP_MS,
  OfflineScheduler,
  REAL_CLOCK,
  START_DELAY_MS,
  type ScheduledProfile,
  type SchedulerClock,
} from '../../../electron/core/offline/scheduler';

const MIN = 60_000;
const T0 = Date.parse('2026-11-23T08:00:00Z');
const KEEP: OfflineOptions = { keepOffline: true, refreshMinutes: 15, notifyBad: false };

/** Timers on a clock that moves only when told; each due timer runs, then its work settles. */
class FakeClock implements SchedulerClock {
  private time = T0;
  private nextHandle = 1;
  private readonly timers = new Map<number, { at: number; run: () => void }>();
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + ms, run });
    return handle;
  };
  clearTimeout = (handle: unknown) => void this.timers.delete(handle as number);
  pending(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.time);
  }
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      await settle();
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].run();
    }
    this.time = until;
    await settle();
  }
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Power as powerMonitor gives it: asked at any time; a change told to the listeners. */
class FakePower implements PowerSource {
  battery = false;
  readonly listeners = new Set<() => void>();
  onBattery = () => this.battery;
  onChange = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  switchTo(battery: boolean): void {
    this.battery = battery;
    for (const listener of this.listeners) listener();
  }
}

const SUMMARY = { mode: 'quick' } as SyncSummary;

function setUp(
  profiles: ScheduledProfile[],
  active: string | null = profiles[0]?.id ?? null,
  withOnChange = true,
) {
  const clock = new FakeClock();
  const power = new FakePower();
  const events = new EventHub();
  const runs: string[] = [];
  const failWith: AppFailure[] = [];
  const changes: string[] = [];
  const connectivity = { online: true, activeProfileId: () => active };
  let release: (() => void) | null = null;
  const state = { holdRuns: false };
  const looks = { count: 0 };
  const scheduler = new OfflineScheduler({
    profiles: () => (looks.count++, profiles),
    run: async (profileId, mode) => {
      runs.push(`${mode}:${profileId}`);
      if (state.holdRuns) await new Promise<void>((resolve) => (release = resolve));
      const failure = failWith.shift();
      if (failure) throw failure;
      const profile = profiles.find((p) => p.id === profileId)!;
      const at = new Date(clock.now()).toISOString();
      if (mode === 'full') profile.lastFullAt = at;
      else profile.lastQuickAt = at;
      return { ...SUMMARY, mode };
    },
    power,
    connectivity,
    events,
    clock,
    ...(withOnChange ? { onChange: (id: string) => changes.push(id) } : {}),
  });
  return {
    clock,
    power,
    events,
    runs,
    failWith,
    changes,
    connectivity,
    scheduler,
    state,
    looks,
    release: () => release?.(),
  };
}

/** Asks the scheduler to look now (options changed), and lets the look finish. */
async function lookNow(t: ReturnType<typeof setUp>): Promise<void> {
  t.scheduler.replan();
  await t.clock.advance(0);
}

const synced = (id: string, options = KEEP): ScheduledProfile => ({
  id,
  options,
  lastQuickAt: new Date(T0 - 5 * MIN).toISOString(),
  lastFullAt: new Date(T0 - 60 * MIN).toISOString(),
});

describe('OfflineScheduler', () => {
  it('checks the newest reports of every kept profile soon after start, then every 15 minutes', async () => {
    const off = synced('off', { ...KEEP, keepOffline: false });
    const t = setUp([synced('a'), synced('b'), off]);
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS - 1);
    expect(t.runs).toEqual([]);
    await t.clock.advance(1);
    expect(t.runs).toEqual(['quick:a', 'quick:b']);
    await t.clock.advance(15 * MIN - 1);
    expect(t.runs).toHaveLength(2);
    await t.clock.advance(1);
    expect(t.runs).toEqual(['quick:a', 'quick:b', 'quick:a', 'quick:b']);
    t.scheduler.stop();
  });

  it('a profile never synced gets its full sync first; then the daily one', async () => {
    const t = setUp([{ id: 'new', options: KEEP, lastQuickAt: null, lastFullAt: null }]);
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['full:new']);
    await t.clock.advance(24 * 60 * MIN);
    expect(t.runs.filter((r) => r === 'full:new')).toHaveLength(2);
    // In between, a quick refresh every 15 minutes after the full sync.
    expect(t.runs.filter((r) => r === 'quick:new')).toHaveLength(24 * 4 - 1);
    t.scheduler.stop();
  });

  it('on battery the due full sync waits (and says so) while quick refreshes run; mains power runs it', async () => {
    const profile = synced('p');
    profile.lastFullAt = new Date(T0 - 25 * 60 * MIN).toISOString();
    const t = setUp([profile]);
    t.power.battery = true;
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['quick:p']);
    expect(t.scheduler.waitingForPower('p')).toBe(true);
    expect(t.changes).toEqual(['p']);
    await t.clock.advance(20 * MIN);
    expect(t.runs).toEqual(['quick:p', 'quick:p']);
    t.power.switchTo(false);
    await t.clock.advance(0);
    expect(t.runs).toEqual(['quick:p', 'quick:p', 'full:p']);
    expect(t.scheduler.waitingForPower('p')).toBe(false);
    expect(t.changes).toEqual(['p', 'p']);
    t.scheduler.stop();
  });

  it('finds the battery at a look even without an event (Linux sends none)', async () => {
    const profile = synced('p');
    profile.lastFullAt = new Date(T0 - 23.9 * 60 * MIN).toISOString();
    const t = setUp([profile]);
    t.scheduler.start();
    t.power.battery = true;
    await t.clock.advance(START_DELAY_MS + 10 * MIN);
    expect(t.runs.every((r) => r.startsWith('quick:'))).toBe(true);
    expect(t.scheduler.waitingForPower('p')).toBe(true);
    t.scheduler.stop();
  });

  it('a run refused because another holds the lease (a CLI sync) is not asked again for a minute', async () => {
    const due = synced('p');
    due.lastQuickAt = new Date(T0 - 20 * MIN).toISOString();
    const t = setUp([due]);
    t.failWith.push(new AppFailure(appError('busy', {}, { reason: 'sync_running' })));
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['quick:p']);
    expect(t.scheduler.lastError('p')).toBeNull();
    await t.clock.advance(BUSY_RETRY_MS - 1);
    expect(t.runs).toHaveLength(1);
    await t.clock.advance(1);
    expect(t.runs).toEqual(['quick:p', 'quick:p']);
    t.scheduler.stop();
  });

  it('a failure keeps its error and is not asked again for a minute; a success clears the error', async () => {
    const t = setUp([synced('p', { ...KEEP, refreshMinutes: 5 })]);
    t.failWith.push(new AppFailure(appError('server_error')));
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.scheduler.lastError('p')).toMatchObject({ kind: 'server_error' });
    expect(t.changes).toEqual(['p']);
    await t.clock.advance(FIRST_BACKOFF_MS - 1);
    expect(t.runs).toEqual(['quick:p']);
    await t.clock.advance(1);
    expect(t.runs).toEqual(['quick:p', 'quick:p']);
    expect(t.scheduler.lastError('p')).toBeNull();
    expect(t.changes).toEqual(['p', 'p']);
    t.scheduler.stop();
  });

  it('failures back off 1, 2, 4 minutes, then the run succeeds', async () => {
    const t = setUp([{ id: 'p', options: KEEP, lastQuickAt: null, lastFullAt: null }]);
    const down = new AppFailure(appError('server_error'));
    t.failWith.push(down, down, down);
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['full:p']);
    // The full sync is due again at once, but waits out 1, then 2, then 4 minutes.
    await t.clock.advance(FIRST_BACKOFF_MS);
    expect(t.runs).toEqual(['full:p', 'full:p']);
    await t.clock.advance(2 * FIRST_BACKOFF_MS - 1);
    expect(t.runs).toHaveLength(2);
    await t.clock.advance(1);
    expect(t.runs).toHaveLength(3);
    await t.clock.advance(4 * FIRST_BACKOFF_MS);
    expect(t.runs).toEqual(['full:p', 'full:p', 'full:p', 'full:p']);
    expect(t.scheduler.lastError('p')).toBeNull();
    t.scheduler.stop();
  });

  it('nothing runs for the active profile while its service cannot be reached; back online, a quick refresh at once', async () => {
    const t = setUp([synced('p')]);
    t.connectivity.online = false;
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS + 60 * MIN);
    expect(t.runs).toEqual([]);
    t.connectivity.online = true;
    t.events.emit('connectivity:changed', { online: true, since: '', lastError: null } as ConnectivityState);
    await t.clock.advance(0);
    expect(t.runs).toEqual(['quick:p']);
    // Going offline is no reason to look, nor is another event.
    t.events.emit('connectivity:changed', { online: false, since: '', lastError: null } as ConnectivityState);
    t.events.emit('sync:progress', { online: true } as never);
    await t.clock.advance(0);
    expect(t.runs).toEqual(['quick:p']);
    t.scheduler.stop();
  });

  it('back online after its start-up refresh, the active profile is refreshed at once, before it is due', async () => {
    const t = setUp([synced('p'), synced('other')], 'p');
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['quick:p', 'quick:other']);
    // Out of reach for two minutes: the next refresh would be due in thirteen more.
    t.connectivity.online = false;
    await t.clock.advance(2 * MIN);
    t.connectivity.online = true;
    t.events.emit('connectivity:changed', { online: true, since: '', lastError: null } as ConnectivityState);
    await t.clock.advance(0);
    expect(t.runs).toEqual(['quick:p', 'quick:other', 'quick:p']);
    t.scheduler.stop();
  });

  it('back online with no active profile, nothing is refreshed before it is due', async () => {
    const t = setUp([synced('p')], null);
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['quick:p']);
    t.events.emit('connectivity:changed', { online: true, since: '', lastError: null } as ConnectivityState);
    await t.clock.advance(0);
    expect(t.runs).toEqual(['quick:p']);
    t.scheduler.stop();
  });

  it('another profile, on another service, keeps running while the active one is out of reach', async () => {
    const t = setUp([synced('active'), synced('other')], 'active');
    t.connectivity.online = false;
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['quick:other']);
    t.scheduler.stop();
  });

  it('a cancelled run is no failure: no error, no back-off', async () => {
    const due = synced('p');
    due.lastQuickAt = new Date(T0 - 20 * MIN).toISOString();
    const t = setUp([due]);
    t.failWith.push(new AppFailure(appError('cancelled')));
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.scheduler.lastError('p')).toBeNull();
    expect(t.changes).toEqual([]);
    // Still due, and no back-off holds it: it runs at the next look.
    await lookNow(t);
    expect(t.runs).toEqual(['quick:p', 'quick:p']);
    t.scheduler.stop();
  });

  it('stopped during a run: the runs after it in that look do not start', async () => {
    const t = setUp([synced('a'), synced('b')]);
    t.state.holdRuns = true;
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['quick:a']);
    t.scheduler.stop();
    t.state.holdRuns = false;
    t.release();
    await t.clock.advance(60 * MIN);
    expect(t.runs).toEqual(['quick:a']);
  });

  it('works without a change listener: failures, successes and power waits', async () => {
    const profile = synced('p', { ...KEEP, refreshMinutes: 5 });
    profile.lastFullAt = new Date(T0 - 25 * 60 * MIN).toISOString();
    const t = setUp([profile], 'p', false);
    t.power.battery = true;
    t.failWith.push(new AppFailure(appError('server_error')));
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.scheduler.waitingForPower('p')).toBe(true);
    expect(t.scheduler.lastError('p')).toMatchObject({ kind: 'server_error' });
    await t.clock.advance(FIRST_BACKOFF_MS);
    expect(t.runs).toEqual(['quick:p', 'quick:p']);
    expect(t.scheduler.lastError('p')).toBeNull();
    t.scheduler.stop();
  });

  it('a run that leaves its "last ran" time as it was is not repeated at once', async () => {
    const profile = synced('p');
    const t = setUp([profile]);
    // A run that does not move the cache's time (cut short by its page bound, say).
    const frozen = profile.lastQuickAt;
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    profile.lastQuickAt = frozen;
    // Past the frozen time's interval, a look finds the run done all the same.
    await t.clock.advance(11 * MIN);
    await lookNow(t);
    expect(t.runs).toEqual(['quick:p']);
    t.scheduler.stop();
  });

  it('a full sync counts as a check of the newest reports, even when it moved no time', async () => {
    const profile = synced('p');
    profile.lastFullAt = new Date(T0 - 25 * 60 * MIN).toISOString();
    profile.lastQuickAt = new Date(T0 - 10 * MIN).toISOString();
    const t = setUp([profile]);
    t.scheduler.start();
    await lookNow(t);
    expect(t.runs).toEqual(['full:p']);
    // The run moved neither time (a walk cut short): neither is due again for a while.
    profile.lastFullAt = new Date(T0 - 25 * 60 * MIN).toISOString();
    profile.lastQuickAt = new Date(T0 - 10 * MIN).toISOString();
    await t.clock.advance(10 * MIN);
    await lookNow(t);
    expect(t.runs).toEqual(['full:p']);
    t.scheduler.stop();
  });

  it('another process checking later moves the next check on; the later of the two times counts', async () => {
    const profile = synced('p');
    const t = setUp([profile]);
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['quick:p']);
    // A CLI refresh 10 minutes later: the next check is 15 minutes after it, not after ours.
    await t.clock.advance(10 * MIN);
    profile.lastQuickAt = new Date(t.clock.now()).toISOString();
    await t.clock.advance(6 * MIN);
    await lookNow(t);
    expect(t.runs).toEqual(['quick:p']);
    await t.clock.advance(9 * MIN);
    expect(t.runs).toEqual(['quick:p', 'quick:p']);
    t.scheduler.stop();
  });

  it('each profile has its own times: one profile’s run does not count for another', async () => {
    const a = synced('a');
    const b = synced('b');
    const t = setUp([a, b]);
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual(['quick:a', 'quick:b']);
    // b's cache time goes back (cleared): b is due, a is not.
    b.lastQuickAt = null;
    b.lastFullAt = new Date(T0 - 60 * MIN).toISOString();
    a.lastQuickAt = new Date(T0 - 60 * MIN).toISOString();
    await lookNow(t);
    expect(t.runs).toEqual(['quick:a', 'quick:b']);
    t.scheduler.stop();
  });

  it('one look per start and per asking: not a second one right behind it', async () => {
    const t = setUp([synced('p')]);
    t.scheduler.start();
    expect(t.looks.count).toBe(1);
    await t.clock.advance(START_DELAY_MS);
    // The start's look ran a refresh, so it looked once more after it: two looks, no third.
    expect(t.looks.count).toBe(3);
    expect(t.clock.pending()).toEqual([15 * MIN]);
    t.scheduler.stop();
  });

  it('options changed: looks again now; a look while a run is on comes right after it', async () => {
    const profile = { ...synced('p'), options: { ...KEEP, keepOffline: false } };
    const t = setUp([profile]);
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual([]);
    profile.options = KEEP;
    t.state.holdRuns = true;
    await lookNow(t);
    expect(t.runs).toEqual(['quick:p']);
    profile.lastFullAt = null;
    await lookNow(t);
    expect(t.runs).toEqual(['quick:p']);
    t.state.holdRuns = false;
    t.release();
    await t.clock.advance(0);
    expect(t.runs).toEqual(['quick:p', 'full:p']);
    t.scheduler.stop();
  });

  it('a look that fails (the profiles could not be read) is tried again later, not never', async () => {
    const t = setUp([synced('p')]);
    const broken = t.power.onBattery;
    t.power.onBattery = () => {
      throw new Error('no power information');
    };
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.runs).toEqual([]);
    expect(t.clock.pending()).toEqual([MAX_SLEEP_MS]);
    t.power.onBattery = broken;
    await t.clock.advance(MAX_SLEEP_MS);
    expect(t.runs).toEqual(['quick:p']);
    t.scheduler.stop();
  });

  it('sleeps at most 15 minutes, and once stopped runs nothing and listens to nothing', async () => {
    const t = setUp([synced('p', { ...KEEP, refreshMinutes: null })]);
    t.scheduler.start();
    await t.clock.advance(START_DELAY_MS);
    expect(t.clock.pending()).toEqual([MAX_SLEEP_MS]);
    t.scheduler.stop();
    expect(t.clock.pending()).toEqual([]);
    expect(t.power.listeners.size).toBe(0);
    t.scheduler.replan();
    expect(t.clock.pending()).toEqual([]);
    t.events.emit('connectivity:changed', { online: true, since: '', lastError: null });
    await t.clock.advance(48 * 60 * MIN);
    expect(t.runs).toEqual([]);
  });
});

describe('the real clock', () => {
  it('tells the time and sets timers that keep no process alive', async () => {
    expect(Math.abs(REAL_CLOCK.now() - Date.now())).toBeLessThan(50);
    const handle = REAL_CLOCK.setTimeout(() => {}, 60_000) as ReturnType<typeof setTimeout>;
    expect(handle.hasRef()).toBe(false);
    REAL_CLOCK.clearTimeout(handle);
    let ran = false;
    REAL_CLOCK.setTimeout(() => (ran = true), 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toBe(true);
    const cancelled = { ran: false };
    const timer = REAL_CLOCK.setTimeout(() => (cancelled.ran = true), 5);
    REAL_CLOCK.clearTimeout(timer);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelled.ran).toBe(false);
  });
});
