/**
 * A damaged offline copy in a running app (issue 30): set aside when a read meets the damage,
 * told as a notice naming the profiles it refills, and refilled by "Keep available offline"'s
 * own full sync — the app's scheduler, on the real core, the real reference service.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OfflineRefreshed, RepairsStatus } from '../../shared/contract';
import { MemoryKeyStore } from '../../electron/core/keys/keyStore';
import { MAINS_POWER } from '../../electron/core/offline/power';
import { createCoreServices, dataPaths } from '../../electron/core/services';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { overwriteMiddle } from '../helpers/damage';

let service: DemoService;
let dir: string;
beforeAll(async () => {
  service = await startDemoService({ reportsPerAccount: 400 });
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-refill-'));
});
afterAll(async () => {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('a read that meets damage sets the copy aside; the scheduler refills it with a full sync; a notice says so', async () => {
  const dataDir = join(dir, 'data');
  const keyStore = new MemoryKeyStore();
  const first = await createCoreServices({ dataDir, keyStore, probeIntervalMs: 0 });
  await first.handlers['profiles:add']({
    name: 'Kept',
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
  const synced = await first.handlers['cache:sync']({ turnOnKeepOffline: true });
  expect(synced.keepOfflineTurnedOn).toBe(true);
  const scope = first.profiles.activeId()!;
  await first.close();
  overwriteMiddle(dataPaths(dataDir).cache);

  // The app again: its scheduler's first look is far off, so only the repair can start a run.
  const app = await createCoreServices({
    dataDir,
    keyStore,
    probeIntervalMs: 0,
    keepOffline: { power: MAINS_POWER, startDelayMs: 3_600_000 },
  });
  try {
    const refilled = new Promise<OfflineRefreshed>((resolve) =>
      app.events.subscribe((event, payload) => {
        if (event === 'offline:refreshed' && (payload as OfflineRefreshed).summary.mode === 'full') {
          resolve(payload as OfflineRefreshed);
        }
      }),
    );
    const told: RepairsStatus[] = [];
    app.events.subscribe((event, payload) => {
      if (event === 'repairs:changed') told.push(payload as RepairsStatus);
    });
    // A read over every row meets the damaged pages.
    expect(app.cache.unseenIds(scope, 'none')).toEqual([]);
    const { summary } = await refilled;
    // A new copy: every report is new to it (and, before its first full sync, no news in the log).
    expect(summary).toMatchObject({ fetched: 400, added: 400, complete: true });
    expect(app.cache.status(scope).reportCount).toBe(400);
    const status = await app.handlers['repairs:status'](undefined);
    expect(status.notices).toMatchObject([
      {
        kind: 'cache_set_aside',
        details: { during: 'use', kept: ['profiles', 'settings', 'changes'], refillProfileIds: [scope] },
      },
    ]);
    expect(told.at(-1)?.notices).toHaveLength(1);
  } finally {
    await app.close();
  }
});
