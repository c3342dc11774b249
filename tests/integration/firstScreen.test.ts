/**
 * `app:firstScreen` (issue 22) end to end: the reference service over HTTP on 127.0.0.1, a real
 * SQLite cache, through `dispatch` as every front end calls it. Its list is what `reports:list`
 * answers for the same query — from the service, from the cache once the service is gone, or
 * the same failure — and only for the profile the window expects, while it is the active one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirstScreen, ReportPageResult } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { createCoreServices, type CoreServices } from '../../electron/core/services';
import { MemoryKeyStore } from '../../electron/core/keys/keyStore';
import { dispatch } from '../../electron/core/ipc/dispatch';

const KEY_A = 'first-screen-key-alice-0001';
const KEY_B = 'first-screen-key-bob-0002';
const QUERY = { per_page: 25, sort_by: 'url', sort: 'asc', page: 2 } as const;

/** The keychain, slowed down on demand (reading the profiles' views then takes that long). */
class SlowKeyStore extends MemoryKeyStore {
  delayMs = 0;
  override async get(account: string): Promise<string | null> {
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return super.get(account);
  }
}

/** The answer without its fetch times (each read stamps its own). */
function withoutTimes(list: Result<ReportPageResult> | null) {
  return list?.ok ? { ...list, value: { ...list.value, fetchedAt: 'stamped' } } : list;
}

describe('app:firstScreen', () => {
  let service: DemoService;
  let dataDir: string;
  let core: CoreServices;
  let alice: string;
  let bob: string;
  const keychain = new SlowKeyStore();

  async function firstScreen(input: unknown): Promise<FirstScreen> {
    const result = await dispatch(core.handlers, 'app:firstScreen', input);
    if (!result.ok) throw new Error(`app:firstScreen failed: ${result.error.message}`);
    return result.value as FirstScreen;
  }

  beforeAll(async () => {
    service = await startDemoService({
      accounts: [
        { apiKey: KEY_A, account: { id: 1, name: 'Alice' } },
        { apiKey: KEY_B, account: { id: 2, name: 'Bob' } },
      ],
      reportsPerAccount: 60,
    });
    dataDir = mkdtempSync(join(tmpdir(), 'report-desk-first-screen-'));
    core = await createCoreServices({
      dataDir,
      keyStore: keychain,
      probeIntervalMs: 0,
      client: { timeoutMs: 2_000, retry: { maxAttempts: 1 } },
    });
    const add = (name: string, apiKey: string) =>
      core.handlers['profiles:add']({
        name,
        baseUrl: service.baseUrl,
        apiKey,
        allowInsecureHttp: false,
        sessionOnly: false,
      });
    bob = (await add('Bob', KEY_B)).id;
    alice = (await add('Alice', KEY_A)).id;
    await core.handlers['profiles:activate']({ id: alice });
  });

  afterAll(async () => {
    await core?.close();
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the profiles, connectivity and the expected list as their own channels do', async () => {
    const first = await firstScreen({ list: { profileId: alice, query: QUERY } });
    expect(first.profiles).toEqual(await core.handlers['profiles:list'](undefined));
    expect(first.connectivity).toEqual(await core.handlers['connectivity:status'](undefined));
    const list = await dispatch(core.handlers, 'reports:list', QUERY);
    expect(withoutTimes(first.list)).toEqual(withoutTimes(list as Result<ReportPageResult>));
    expect(first.list).toMatchObject({ ok: true, value: { source: 'network', perPage: 25 } });
    expect((first.list as { value: ReportPageResult }).value.reports.length).toBeGreaterThan(0);
  });

  it('answers no list when none is asked for, or for a profile that is not the active one', async () => {
    const sent = service.requests.length;
    expect((await firstScreen(undefined)).list).toBeNull();
    expect((await firstScreen({})).list).toBeNull();
    const other = await firstScreen({ list: { profileId: bob, query: QUERY } });
    expect(other.list).toBeNull();
    expect(other.profiles.activeId).toBe(alice);
    const unknown = await firstScreen({ list: { profileId: 'gone-profile', query: {} } });
    expect(unknown.list).toBeNull();
    // Nothing was asked of the service for a list that would not be answered.
    expect(service.requests.slice(sent).map((request) => request.path)).toEqual([]);
  });

  it('answers one moment: no list when the profile was switched while the answer was made', async () => {
    // The views wait for the keychain; meanwhile another window switches to Bob.
    keychain.delayMs = 200;
    const answer = firstScreen({ list: { profileId: alice, query: QUERY } });
    void core.handlers['profiles:activate']({ id: bob });
    const first = await answer;
    keychain.delayMs = 0;
    expect(first.profiles.activeId).toBe(bob);
    expect(first.list).toBeNull();
    // Asked for the profile that is active now, the answer has its list.
    const again = await firstScreen({ list: { profileId: bob, query: QUERY } });
    expect(again.list).toMatchObject({ ok: true, value: { source: 'network' } });
    await core.handlers['profiles:activate']({ id: alice });
  });

  it('refuses what reports:list refuses, and any other field', async () => {
    for (const input of [
      { list: { profileId: alice, query: { per_page: 7 } } },
      { list: { profileId: 'not a profile id', query: {} } },
      { list: { profileId: alice } },
      { list: { profileId: alice, query: {} }, extra: 1 },
    ]) {
      expect(await dispatch(core.handlers, 'app:firstScreen', input)).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input' },
      });
    }
  });

  it('with the service gone: the list from the cache, and connectivity already offline', async () => {
    // The page seen above is in the cache; the same query is answered from it.
    await service.stop();
    const first = await firstScreen({ list: { profileId: alice, query: QUERY } });
    expect(first.list).toMatchObject({ ok: true, value: { source: 'cache', perPage: 25 } });
    expect(first.connectivity.online).toBe(false);
    expect(first.connectivity).toEqual(await core.handlers['connectivity:status'](undefined));
  });

  it('with the service gone and nothing cached: the failure reports:list answers, as a value', async () => {
    await core.handlers['profiles:activate']({ id: bob });
    await core.handlers['cache:clear'](undefined);
    const first = await firstScreen({ list: { profileId: bob, query: QUERY } });
    const list = await dispatch(core.handlers, 'reports:list', QUERY);
    expect(list.ok).toBe(false);
    expect(first.list).toEqual(list);
    expect(first.profiles.activeId).toBe(bob);
  });
});
