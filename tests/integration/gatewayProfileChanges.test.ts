/**
 * The profiles service through the gateway's handlers, against the reference service over real
 * HTTP: two key changes of one profile at once run one after another, so the key asked for
 * last is the one kept, however the service's answers interleave.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreServices, type CoreServices } from '../../electron/core/services';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { testKeyStore } from '../helpers/keychain';

const FIRST_KEY = 'key-first-0123456789abcdef';
const HELD_KEY = 'key-held-0123456789abcdef';
const LAST_KEY = 'key-last-0123456789abcdef';

describe('profile changes through the gateway', () => {
  let service: DemoService;
  let dataDir: string;
  let core: CoreServices;
  const keychain = testKeyStore();
  /** Set by the test: holds the account check of HELD_KEY until it resolves. */
  let holdHeldKey: Promise<void> | null = null;
  let lastKeyAnswered: () => void = () => undefined;

  beforeAll(async () => {
    service = await startDemoService({
      accounts: [FIRST_KEY, HELD_KEY, LAST_KEY].map((apiKey, i) => ({
        apiKey,
        account: { id: 7 + i, name: `Carol ${i}`, email: `carol${i}@example.test` },
      })),
      reportsPerAccount: 3,
    });
    dataDir = mkdtempSync(join(tmpdir(), 'report-desk-profile-changes-'));
    const fetchHoldingOneKey: typeof fetch = async (input, init) => {
      const authorization = new Headers(init?.headers).get('authorization') ?? '';
      if (authorization.endsWith(HELD_KEY) && holdHeldKey) await holdHeldKey;
      const response = await fetch(input, init);
      if (authorization.endsWith(LAST_KEY)) lastKeyAnswered();
      return response;
    };
    core = await createCoreServices({
      dataDir,
      keyStore: keychain.store,
      fetch: fetchHoldingOneKey,
      probeIntervalMs: 0,
      client: { timeoutMs: 5_000 },
    });
  });

  afterAll(async () => {
    await core?.close();
    await service?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the key asked for last when two key changes of one profile overlap', async () => {
    const h = core.handlers;
    const profile = await h['profiles:add']({
      name: 'Carol',
      baseUrl: service.baseUrl,
      apiKey: FIRST_KEY,
      allowInsecureHttp: false,
      sessionOnly: false,
    });

    // The first change's check is held until the second change's check was answered — or,
    // when changes run one after another (the second not yet sent), a few event-loop turns.
    const lastAnswered = new Promise<void>((resolve) => (lastKeyAnswered = resolve));
    let turns = 0;
    const fewTurns = new Promise<void>((resolve) => {
      const turn = () => (++turns >= 50 ? resolve() : setImmediate(turn));
      setImmediate(turn);
    });
    holdHeldKey = Promise.race([lastAnswered, fewTurns]);

    const held = h['profiles:setKey']({ id: profile.id, apiKey: HELD_KEY, sessionOnly: false });
    const last = h['profiles:setKey']({ id: profile.id, apiKey: LAST_KEY, sessionOnly: false });
    await Promise.all([held, last]);
    holdHeldKey = null;

    expect((await h['profiles:list'](undefined)).profiles[0]?.keyHint).toBe(LAST_KEY.slice(-4));
    expect(await keychain.store.get(profile.id)).toBe(LAST_KEY);
    // Requests use it too (the vault's copy in memory is the last key's).
    const page = await h['reports:list']({});
    expect(page.source).toBe('network');

    await h['profiles:remove']({ id: profile.id });
    expect(await keychain.store.get(profile.id)).toBeNull();
  });
});
