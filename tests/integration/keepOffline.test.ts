/**
 * "Keep available offline" through the gateway, as the app has it: the per-profile options in
 * profiles.json (read back by another store, as another process would), the first "Make
 * available offline" turning the option on, the offline state and its events, and the
 * scheduler running for real against the reference service on 127.0.0.1 (mains power, the
 * start delay shortened; the timing rules themselves are tests/unit/offline/scheduler.test.ts).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContractHandlers, OfflineState, SyncProgress } from '../../shared/contract';
import { MAINS_POWER } from '../../electron/core/offline/power';
import { ProfileStore } from '../../electron/core/profiles/profileStore';
import { dataPaths } from '../../electron/core/services';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { tempCore, type TempCore } from '../reliability/helpers';

let service: DemoService;

beforeAll(async () => {
  service = await startDemoService({ reportsPerAccount: 150 });
});
afterAll(async () => {
  await service?.stop();
});

async function withProfile(temp: TempCore): Promise<string> {
  const profile = await temp.core.handlers['profiles:add']({
    name: 'Kept',
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
  return profile.id;
}

describe('the options and the offline state', () => {
  let temp: TempCore;
  let h: ContractHandlers;
  let profileId: string;
  const changed: OfflineState[] = [];

  beforeAll(async () => {
    temp = await tempCore('keep-offline');
    h = temp.core.handlers;
    profileId = await withProfile(temp);
    temp.core.events.subscribe((event, payload) => {
      if (event === 'offline:changed') changed.push(payload as OfflineState);
    });
  });
  afterAll(async () => temp?.close());

  it('a new profile keeps nothing offline, not chosen yet, never checked', async () => {
    expect(await h['offline:get']({ profileId })).toEqual({
      profileId,
      keepOffline: false,
      refreshMinutes: 15,
      notifyBad: false,
      keepOfflineChosen: false,
      lastQuickRefreshAt: null,
      lastFullSyncAt: null,
      running: null,
      waitingForPower: false,
      lastError: null,
    });
  });

  it('the first "Make available offline" turns it on and says so; a quick refresh or a CLI sync does not', async () => {
    const quick = await h['cache:sync']({ quick: true, turnOnKeepOffline: true });
    expect(quick).toMatchObject({ mode: 'quick' });
    expect(quick.keepOfflineTurnedOn).toBeUndefined();
    const cli = await h['cache:sync'](undefined);
    expect(cli).toMatchObject({ mode: 'full' });
    expect(cli.keepOfflineTurnedOn).toBeUndefined();
    expect((await h['offline:get']({ profileId })).keepOffline).toBe(false);

    changed.length = 0;
    const first = await h['cache:sync']({ turnOnKeepOffline: true });
    expect(first.keepOfflineTurnedOn).toBe(true);
    const state = await h['offline:get']({ profileId });
    expect(state).toMatchObject({ keepOffline: true, keepOfflineChosen: true });
    expect(state.lastFullSyncAt).not.toBeNull();
    // Announced as the run started (running: 'full') and ended, and when the option changed.
    expect(changed.map((c) => c.running)).toEqual(['full', null, null]);
    expect(changed.at(-1)).toMatchObject({ keepOffline: true });

    // Turned off by the user, a later "Make available offline" leaves it off.
    await h['offline:set']({ profileId, keepOffline: false });
    expect((await h['cache:sync']({ turnOnKeepOffline: true })).keepOfflineTurnedOn).toBeUndefined();
    expect((await h['offline:get']({ profileId })).keepOffline).toBe(false);
  });

  it('options are saved in profiles.json — no secret there — and another process reads them', async () => {
    const next = await h['offline:set']({
      profileId,
      keepOffline: true,
      refreshMinutes: null,
      notifyBad: true,
    });
    expect(next).toMatchObject({ keepOffline: true, refreshMinutes: null, notifyBad: true });
    const file = dataPaths(temp.dataDir).profiles;
    const elsewhere = new ProfileStore(file);
    try {
      expect(elsewhere.get(profileId)?.offline).toEqual({
        keepOffline: true,
        refreshMinutes: null,
        notifyBad: true,
      });
      // A change made there is seen here.
      elsewhere.setOfflineOptions(profileId, { refreshMinutes: 60 });
    } finally {
      elsewhere.close();
    }
    expect(await h['offline:get']({ profileId })).toMatchObject({ refreshMinutes: 60, notifyBad: true });
    expect(readFileSync(file, 'utf8')).not.toContain(service.apiKey);
  });

  it('an unknown profile is not_found; a bad interval is invalid input', async () => {
    await expect(h['offline:get']({ profileId: 'nobody' })).rejects.toMatchObject({
      error: { kind: 'not_found' },
    });
    await expect(h['offline:set']({ profileId: 'nobody', keepOffline: true })).rejects.toMatchObject({
      error: { kind: 'not_found' },
    });
  });
});

describe('the scheduler in the core', () => {
  it('keeps a kept profile current by itself: its first full sync at start, in the background, announced', async () => {
    const temp = await tempCore('keep-offline-scheduler', {
      keepOffline: { power: MAINS_POWER, startDelayMs: 0 },
    });
    try {
      const progress: SyncProgress[] = [];
      const syncingSeen: boolean[] = [];
      temp.core.events.subscribe((event, payload) => {
        if (event === 'sync:progress') progress.push(payload as SyncProgress);
        // Asked as the renderer would while the run is on.
        if (event === 'offline:changed' && (payload as OfflineState).running === 'full') {
          void temp.core.handlers['cache:status'](undefined).then((status) =>
            syncingSeen.push(status.syncing),
          );
        }
      });
      const profileId = await withProfile(temp);
      await temp.core.handlers['offline:set']({ profileId, keepOffline: true });
      await vi.waitFor(
        async () =>
          expect((await temp.core.handlers['offline:get']({ profileId })).lastFullSyncAt).not.toBeNull(),
        { timeout: 15_000 },
      );
      // While it ran, the status never said "a sync runs elsewhere" (a sync asked now waits for it).
      expect(syncingSeen).toEqual([false]);
      // The background run says so in its progress (no "finished" notification for it).
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.every((p) => p.background === true)).toBe(true);
      expect(temp.core.cache.status(profileId).reportCount).toBe(service.reportCount());
      // A profile that keeps nothing offline is left alone.
      const other = await temp.core.handlers['profiles:add']({
        name: 'Not kept',
        baseUrl: service.baseUrl,
        apiKey: service.apiKey,
        allowInsecureHttp: false,
        sessionOnly: false,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(temp.core.cache.status(other.id).lastFullSyncAt).toBeNull();
    } finally {
      await temp.close();
    }
  });
});
