/**
 * What "Keep available offline" runs now, and when to look again (pure: no clock, no timers).
 * For every profile that keeps its reports offline:
 *  - a full sync once a day (and never run yet: at once), unless the computer is on battery —
 *    then it waits for mains power (or for the user, who can always start one);
 *  - otherwise a quick refresh every `refreshMinutes` after the last check of the newest
 *    reports (a full sync checks them too), and at once when asked (the app started, the
 *    service is back); none at all with "only by hand";
 *  - nothing while its service cannot be reached (the connectivity probe watches it, and says
 *    when it is back) nor before a back-off after a failure is over.
 */
import type { OfflineOptions } from '../../../shared/contract';

export const FULL_SYNC_EVERY_MS = 24 * 60 * 60 * 1000;

export type RunMode = 'quick' | 'full';

export interface ProfileSchedule {
  id: string;
  options: OfflineOptions;
  /** Epoch ms of the last quick refresh, and of the last full sync (null or -Infinity: never). */
  lastQuickAt: number | null;
  lastFullAt: number | null;
  /** A quick refresh was asked for now: the app started, or the service is back. */
  quickAsked: boolean;
  /** Nothing runs before this time (a failure's back-off, a refusal's wait). */
  notBefore: number;
  /** Its service cannot be reached now. */
  unreachable: boolean;
}

export interface Plan {
  runs: { profileId: string; mode: RunMode }[];
  /** Profiles whose daily full sync is due but waits for mains power. */
  waitingForPower: string[];
  /** When something falls due next (epoch ms), or null when nothing will by itself. */
  nextAt: number | null;
}

export function planRuns(profiles: readonly ProfileSchedule[], now: number, onBattery: boolean): Plan {
  const plan: Plan = { runs: [], waitingForPower: [], nextAt: null };
  const later = (at: number) => {
    plan.nextAt = Math.min(plan.nextAt ?? Infinity, at);
  };
  for (const profile of profiles) {
    if (!profile.options.keepOffline || profile.unreachable) continue;
    // Never run: due at once (-Infinity).
    const fullDueAt = (profile.lastFullAt ?? -Infinity) + FULL_SYNC_EVERY_MS;
    const fullDue = fullDueAt <= now;
    // Waiting for power is said even while a back-off holds everything back.
    if (fullDue && onBattery) plan.waitingForPower.push(profile.id);
    if (now < profile.notBefore) {
      later(profile.notBefore);
      continue;
    }
    if (fullDue && !onBattery) {
      plan.runs.push({ profileId: profile.id, mode: 'full' });
      continue;
    }
    if (!fullDue) later(fullDueAt);
    const minutes = profile.options.refreshMinutes;
    if (minutes === null) continue;
    const checked = Math.max(profile.lastQuickAt ?? -Infinity, profile.lastFullAt ?? -Infinity);
    const quickDueAt = profile.quickAsked ? now : checked + minutes * 60_000;
    if (quickDueAt <= now) plan.runs.push({ profileId: profile.id, mode: 'quick' });
    else later(quickDueAt);
  }
  return plan;
}
