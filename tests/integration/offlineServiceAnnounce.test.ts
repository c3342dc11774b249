/**
 * What the offline service announces (core/gateway/offlineService.ts): a profile's offline state
 * as `offline:changed` whenever a sync or refresh of it starts or ends, nothing for a scope that
 * is no profile (the CLI's key), and nothing once it is closed. The core's real profiles, cache
 * and events on a temp data dir, its profile on the reference service; the sync service is a stand-in that does what SyncService.observe
 * does (adds an observer, answers its removal) and lets the test say when a run of a scope moved.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OfflineService } from '../../electron/core/gateway/offlineService';
import type { SyncService } from '../../electron/core/gateway/syncService';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import type { OfflineState } from '../../shared/contract';
import { tempCore, type TempCore } from '../reliability/helpers';

let demo: DemoService;
let temp: TempCore;
let profileId: string;
const announced: OfflineState[] = [];
const observers = new Set<(scope: string) => void>();
/** A run of `scope` started or ended, as SyncService tells its observers. */
const runMoved = (scope: string) => {
  for (const observer of observers) observer(scope);
};
const sync = {
  observe(observer: (scope: string) => void) {
    observers.add(observer);
    return () => observers.delete(observer);
  },
  runningFor: () => false,
} as unknown as SyncService;

beforeAll(async () => {
  demo = await startDemoService({ reportsPerAccount: 5 });
});
afterAll(async () => demo?.stop());
beforeEach(async () => {
  temp = await tempCore('offline-announce');
  const profile = await temp.core.handlers['profiles:add']({
    name: 'Announced',
    baseUrl: demo.baseUrl,
    apiKey: demo.apiKey,
    allowInsecureHttp: false,
    sessionOnly: true,
  });
  profileId = profile.id;
  announced.length = 0;
  temp.core.events.subscribe((event, payload) => {
    if (event === 'offline:changed') announced.push(payload as OfflineState);
  });
});
afterEach(async () => {
  observers.clear();
  await temp.close();
});

const service = () =>
  new OfflineService(temp.core.profiles, temp.core.connections, temp.core.cache, sync, temp.core.events);

describe('the offline service announces', () => {
  it('a profile’s state when a run of it moves', () => {
    service();
    runMoved(profileId);
    expect(announced).toEqual([expect.objectContaining({ profileId, keepOffline: false, running: false })]);
  });

  it('nothing for a scope that is no profile, and answers null for it', () => {
    const offline = service();
    runMoved('cli-scope-of-a-key');
    expect(offline.announce('cli-scope-of-a-key')).toBeNull();
    expect(announced).toEqual([]);
    expect(offline.announce(profileId)).toMatchObject({ profileId });
  });

  it('nothing once closed: it stops observing the runs', () => {
    const offline = service();
    expect(observers.size).toBe(1);
    offline.close();
    expect(observers.size).toBe(0);
    runMoved(profileId);
    expect(announced).toEqual([]);
  });
});
