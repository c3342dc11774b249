/**
 * The core's errors name no screen or command of any front end: where the next step depends
 * on the front end, they carry a reason and the data to word it (real HTTP, SQLite, keychain).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreServices, type CoreServices } from '../../electron/core/services';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { AppFailure, type AppError } from '../../shared/errors';
import { testKeyStore } from '../helpers/keychain';

const KEY = 'key-dave-0123456789abcdef';
const SCREEN_WORDS = /Keys & profiles|Make available offline|Settings|report-desk/;

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(AppFailure);
  return (thrown as AppFailure).error;
}

describe("the core's errors carry reasons, not a front end's words", () => {
  let service: DemoService;
  let dataDir: string;
  let core: CoreServices;
  const keychain = testKeyStore();

  beforeAll(async () => {
    service = await startDemoService({
      accounts: [{ apiKey: KEY, account: { id: 4, name: 'Dave', email: 'dave@example.test' } }],
      reportsPerAccount: 3,
    });
    dataDir = mkdtempSync(join(tmpdir(), 'report-desk-error-reasons-'));
    core = await createCoreServices({
      dataDir,
      keyStore: keychain.store,
      probeIntervalMs: 0,
      client: { timeoutMs: 2_000, retry: { maxAttempts: 1 } },
    });
  });

  afterAll(async () => {
    await core?.close();
    await service?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a profile whose key is gone: unauthorized, no_key_stored, with the profile name', async () => {
    const h = core.handlers;
    const profile = await h['profiles:add']({
      name: 'Dave',
      baseUrl: service.baseUrl,
      apiKey: KEY,
      allowInsecureHttp: false,
      sessionOnly: false,
    });
    // The key removed outside this process (another tool, the user in the keyring app).
    await keychain.store.delete(profile.id);
    core.profiles.markKeyChanged(profile.id);
    const error = await errorOf(h['reports:list']({}));
    expect(error).toMatchObject({
      kind: 'unauthorized',
      reason: 'no_key_stored',
      details: { profileName: 'Dave' },
    });
    expect(error.message).not.toMatch(SCREEN_WORDS);
    await h['profiles:setKey']({ id: profile.id, apiKey: KEY, sessionOnly: false });
  });

  it('a view with nothing cached while the service is down: offline, nothing_cached, with the cause', async () => {
    await service.stop();
    const error = await errorOf(core.handlers['reports:get']({ id: '2' }));
    expect(error.kind).toBe('offline');
    expect(error.reason).toBe('nothing_cached');
    expect(error.details?.cause?.message).toMatch(/could not be reached|did not answer/);
    expect(error.details?.cause?.code).toMatch(/^http\.(unreachable|timeout)$/);
    expect(error.code).toBe('offline.nothing_cached');
    expect(error.message).not.toMatch(SCREEN_WORDS);
  });
});
