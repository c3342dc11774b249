/**
 * A profile's "Keep available offline" options with their defaults (pure): a new profile keeps
 * nothing offline until the user (or the first "Make available offline") turns it on, checks
 * the newest reports every 15 minutes once on, and notifies nobody.
 */
import type { OfflineOptions } from '../../../shared/contract';
import type { StoredProfile } from '../profiles/profileRecord';

export const DEFAULT_OFFLINE_OPTIONS: OfflineOptions = {
  keepOffline: false,
  refreshMinutes: 15,
  notifyBad: false,
};

/** The profile's options, defaults filled in; no profile (a fixed connection): the defaults. */
export function offlineOptionsOf(profile: Pick<StoredProfile, 'offline'> | undefined): OfflineOptions {
  const stored = profile?.offline ?? {};
  return {
    keepOffline: stored.keepOffline ?? DEFAULT_OFFLINE_OPTIONS.keepOffline,
    refreshMinutes:
      stored.refreshMinutes === undefined ? DEFAULT_OFFLINE_OPTIONS.refreshMinutes : stored.refreshMinutes,
    notifyBad: stored.notifyBad ?? DEFAULT_OFFLINE_OPTIONS.notifyBad,
  };
}

/** Whether "Keep available offline" was ever chosen (by the user, or the first full sync). */
export function keepOfflineChosen(profile: Pick<StoredProfile, 'offline'> | undefined): boolean {
  return profile?.offline?.keepOffline !== undefined;
}
