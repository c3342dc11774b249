/**
 * "Keep available offline" for the front ends: a profile's options (profiles.json, through the
 * profile store's locked read-modify-write), when its copy was last checked (the cache), what
 * runs now, and the scheduler's view (waiting for mains power, the last automatic failure).
 * Announces every change as `offline:changed`. The app's first "Make available offline" turns
 * the option on (`cache:sync` with turnOnKeepOffline) and says so in its summary.
 */
import type { ChannelParsedInput, OfflineState, SyncSummary } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import { LAST_FULL_SYNC_META, LAST_QUICK_REFRESH_META, type ReportCache } from '../cache/reportCache';
import type { EventHub } from '../events';
import { keepOfflineChosen, offlineOptionsOf } from '../offline/options';
import type { ProfileStore, StoredProfile } from '../profiles/profileStore';
import type { Connections } from './connection';
import type { SyncService } from './syncService';

/** What the scheduler knows of a profile (core/offline/scheduler.ts), where one runs. */
export interface SchedulerView {
  waitingForPower(profileId: string): boolean;
  lastError(profileId: string): AppError | null;
  /** The options or the connectivity changed: plan again. */
  replan(): void;
}

export class OfflineService {
  private scheduler: SchedulerView | null = null;
  private readonly stopObserving: () => void;

  constructor(
    private readonly profiles: ProfileStore,
    private readonly connections: Connections,
    private readonly cache: ReportCache,
    private readonly sync: SyncService,
    private readonly events: EventHub,
  ) {
    this.stopObserving = sync.observe((scope) => this.announce(scope));
  }

  /** The app's scheduler, once it runs (the CLI and the tests have none). */
  attach(scheduler: SchedulerView): void {
    this.scheduler = scheduler;
  }

  /** Stops announcing: the runs' moves are no longer observed. */
  close(): void {
    this.stopObserving();
  }

  /** The profile's state (`profile`: when the caller has just read it, not read again). */
  state(profileId: string, profile = this.profiles.requireProfile(profileId)): OfflineState {
    return {
      profileId,
      ...offlineOptionsOf(profile),
      keepOfflineChosen: keepOfflineChosen(profile),
      // The two times only: cache.status would also count the scope's reports.
      lastQuickRefreshAt: this.cache.getMeta(profileId, LAST_QUICK_REFRESH_META),
      lastFullSyncAt: this.cache.getMeta(profileId, LAST_FULL_SYNC_META),
      running: this.sync.runningFor(profileId),
      waitingForPower: this.scheduler?.waitingForPower(profileId) ?? false,
      lastError: this.scheduler?.lastError(profileId) ?? null,
    };
  }

  set(input: ChannelParsedInput<'offline:set'>): OfflineState {
    const { profileId, ...changes } = input;
    this.profiles.setOfflineOptions(profileId, changes);
    this.scheduler?.replan();
    return this.emitState(profileId);
  }

  /** `cache:sync`: the run asked for; the app's first full sync turns "Keep available offline" on. */
  async syncNow(input: ChannelParsedInput<'cache:sync'>): Promise<SyncSummary> {
    const summary = await this.sync.run({ mode: input?.quick ? 'quick' : 'full' });
    const profileId = this.connections.activeProfileId();
    const profile = profileId ? this.profiles.get(profileId) : undefined;
    if (!input?.turnOnKeepOffline || input.quick || !profile || keepOfflineChosen(profile)) return summary;
    this.set({ profileId: profile.id, keepOffline: true });
    return { ...summary, keepOfflineTurnedOn: true };
  }

  /** Emits the profile's state (nothing for a scope that is not a profile, e.g. the CLI's key). */
  announce(profileId: string): OfflineState | null {
    const profile = this.profiles.get(profileId);
    if (!profile) return null;
    return this.emitState(profileId, profile);
  }

  private emitState(profileId: string, profile?: StoredProfile): OfflineState {
    const state = this.state(profileId, profile);
    this.events.emit('offline:changed', state);
    return state;
  }
}
