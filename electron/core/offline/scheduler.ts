/**
 * "Keep available offline" in the app: runs what plan.ts says is due — the quick refresh and
 * the daily full sync of every profile that keeps its reports offline — one run at a time,
 * then sleeps until something is due again. Everything it depends on comes in: the clock and
 * its timers, the power source (Electron's powerMonitor in the app), connectivity (its events
 * come through the hub) and the run itself (the gateway's SyncService, background runs).
 *
 * Polite by construction: a run refused because another holds the profile's lease (a CLI
 * sync, another window) is not retried for BUSY_RETRY_MS; a failure backs off 1, 2, 4 … 60
 * minutes; a profile whose service cannot be reached waits for connectivity to say it is back
 * (the probe asks, not the scheduler); each tick runs at most one run per profile, and a run
 * that ends without moving its "last ran" time still counts as done, so no tick repeats it.
 */
import type { ConnectivityState, OfflineOptions, SyncSummary } from '../../../shared/contract';
import { toAppError, type AppError } from '../../../shared/errors';
import type { EventHub } from '../events';
import { UNREF_TIMERS, type Timers } from '../timers';
import { planRuns, type ProfileSchedule, type RunMode } from './plan';
import type { PowerSource } from './power';

/** A run refused for another one holding the lease is tried again this much later. */
export const BUSY_RETRY_MS = 60_000;
/** Back-off after the first failure, doubling up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 60_000;
export const MAX_BACKOFF_MS = 60 * 60_000;
/** The app starts first; the start's quick refresh follows after this. */
export const START_DELAY_MS = 5_000;
/** Never sleep longer than this between looks (options may change in another process). */
export const MAX_SLEEP_MS = 15 * 60_000;

export interface SchedulerClock extends Timers {
  now(): number;
}

export const REAL_CLOCK: SchedulerClock = { now: () => Date.now(), ...UNREF_TIMERS };

export interface ScheduledProfile {
  id: string;
  options: OfflineOptions;
  lastQuickAt: string | null;
  lastFullAt: string | null;
}

export interface SchedulerOptions {
  /** Every profile with its options and the cache's "last ran" times. */
  profiles: () => ScheduledProfile[];
  /** One background run (the gateway's SyncService); refused with `busy` while another runs. */
  run: (profileId: string, mode: RunMode) => Promise<SyncSummary>;
  power: PowerSource;
  /** The active profile's connectivity; its changes arrive as `connectivity:changed` events. */
  connectivity: { readonly online: boolean; activeProfileId(): string | null };
  events: EventHub;
  clock?: SchedulerClock;
  startDelayMs?: number;
  /** A profile's waiting-for-power or last error changed. */
  onChange?: (profileId: string) => void;
}

export class OfflineScheduler {
  private readonly clock: SchedulerClock;
  private timer: unknown = null;
  private ticking = false;
  private stopped = false;
  private readonly quickAsked = new Set<string>();
  private readonly notBefore = new Map<string, number>();
  private readonly failures = new Map<string, number>();
  private readonly errors = new Map<string, AppError>();
  private readonly tried = new Map<string, number>();
  private waiting = new Set<string>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly options: SchedulerOptions) {
    this.clock = options.clock ?? REAL_CLOCK;
  }

  /** Starts: a quick refresh of every kept profile soon, then whatever falls due. */
  start(): void {
    for (const profile of this.options.profiles()) this.quickAsked.add(profile.id);
    this.unsubscribe.push(this.options.power.onChange(() => this.replan()));
    this.unsubscribe.push(
      this.options.events.subscribe((event, payload) => {
        if (event !== 'connectivity:changed' || !(payload as ConnectivityState).online) return;
        // Back online: check the newest reports of the active profile now.
        const active = this.options.connectivity.activeProfileId();
        if (active !== null) this.quickAsked.add(active);
        this.replan();
      }),
    );
    this.arm(this.options.startDelayMs ?? START_DELAY_MS);
  }

  stop(): void {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    this.timer = null;
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  /** The options or the power changed: look again now. */
  replan(): void {
    this.arm(0);
  }

  waitingForPower(profileId: string): boolean {
    return this.waiting.has(profileId);
  }

  lastError(profileId: string): AppError | null {
    return this.errors.get(profileId) ?? null;
  }

  private arm(ms: number): void {
    if (this.stopped) return;
    this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null;
        void this.tick();
      },
      Math.max(0, ms),
    );
  }

  private schedules(): ProfileSchedule[] {
    const { connectivity } = this.options;
    // The later of the cache's time (any process's run) and this scheduler's own last run.
    const latest = (stored: string | null, key: string) =>
      Math.max(stored === null ? -Infinity : Date.parse(stored), this.tried.get(key) ?? -Infinity);
    return this.options.profiles().map((profile) => ({
      id: profile.id,
      options: profile.options,
      lastQuickAt: latest(profile.lastQuickAt, `${profile.id}/quick`),
      lastFullAt: latest(profile.lastFullAt, `${profile.id}/full`),
      quickAsked: this.quickAsked.has(profile.id),
      notBefore: this.notBefore.get(profile.id) ?? 0,
      unreachable: !connectivity.online && connectivity.activeProfileId() === profile.id,
    }));
  }

  private async tick(): Promise<void> {
    // A look asked for during a run comes right after it: a tick with runs looks again at once.
    if (this.ticking) return;
    this.ticking = true;
    let nextAt: number | null = null;
    try {
      nextAt = await this.runDue();
    } catch {
      // Reading the profiles or the power failed: look again later rather than never.
    } finally {
      this.ticking = false;
    }
    const now = this.clock.now();
    this.arm(Math.min(MAX_SLEEP_MS, Math.max(0, (nextAt ?? now + MAX_SLEEP_MS) - now)));
  }

  /** Runs what is due, one after another; answers when to look next. */
  private async runDue(): Promise<number | null> {
    const plan = planRuns(this.schedules(), this.clock.now(), this.options.power.onBattery());
    this.setWaiting(new Set(plan.waitingForPower));
    for (const { profileId, mode } of plan.runs) {
      if (this.stopped) return null;
      await this.runOne(profileId, mode);
    }
    // Planned again right after the runs: what they did moved every due time on.
    return plan.runs.length > 0 ? this.clock.now() : plan.nextAt;
  }

  private async runOne(profileId: string, mode: RunMode): Promise<void> {
    const at = this.clock.now();
    this.quickAsked.delete(profileId);
    try {
      await this.options.run(profileId, mode);
      // Done, even if the cache's time did not move (a walk cut short): not due again at once.
      // (A full sync reads the newest reports too: plan.ts counts its time for both.)
      this.tried.set(`${profileId}/${mode}`, at);
      this.failures.delete(profileId);
      this.notBefore.delete(profileId);
      if (this.errors.delete(profileId)) this.options.onChange?.(profileId);
    } catch (thrown) {
      const error = toAppError(thrown);
      if (error.kind === 'busy') {
        // Another window or command keeps the copy current meanwhile: look again later.
        this.notBefore.set(profileId, at + BUSY_RETRY_MS);
        return;
      }
      if (error.kind === 'cancelled') return;
      const failures = (this.failures.get(profileId) ?? 0) + 1;
      this.failures.set(profileId, failures);
      this.notBefore.set(profileId, at + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failures - 1)));
      this.errors.set(profileId, error);
      this.options.onChange?.(profileId);
    }
  }

  private setWaiting(next: Set<string>): void {
    const changed = [...next].filter((id) => !this.waiting.has(id));
    changed.push(...[...this.waiting].filter((id) => !next.has(id)));
    this.waiting = next;
    for (const id of changed) this.options.onChange?.(id);
  }
}
