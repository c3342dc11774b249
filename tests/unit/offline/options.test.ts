/** A profile's "Keep available offline" options and their defaults (core/offline/options.ts). */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OFFLINE_OPTIONS,
  keepOfflineChosen,
  offlineOptionsOf,
} from '../../../electron/core/offline/options';

describe('offline options', () => {
  it('a new profile keeps nothing offline, checks every 15 minutes once on, and notifies nobody', () => {
    expect(DEFAULT_OFFLINE_OPTIONS).toEqual({ keepOffline: false, refreshMinutes: 15, notifyBad: false });
    expect(offlineOptionsOf({})).toEqual(DEFAULT_OFFLINE_OPTIONS);
    expect(offlineOptionsOf(undefined)).toEqual(DEFAULT_OFFLINE_OPTIONS);
    expect(keepOfflineChosen({})).toBe(false);
    expect(keepOfflineChosen(undefined)).toBe(false);
  });

  it('what was chosen wins, "only by hand" (null) included; turned off is a choice too', () => {
    expect(
      offlineOptionsOf({ offline: { keepOffline: true, refreshMinutes: null, notifyBad: true } }),
    ).toEqual({
      keepOffline: true,
      refreshMinutes: null,
      notifyBad: true,
    });
    expect(offlineOptionsOf({ offline: { refreshMinutes: 60 } })).toEqual({
      keepOffline: false,
      refreshMinutes: 60,
      notifyBad: false,
    });
    expect(keepOfflineChosen({ offline: { keepOffline: false } })).toBe(true);
    expect(keepOfflineChosen({ offline: { notifyBad: true } })).toBe(false);
  });
});
