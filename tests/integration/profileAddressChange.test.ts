/**
 * A compromised renderer (or anyone holding the preview's credential) pointing a profile at a
 * server it controls, to receive the stored key as `Authorization: Bearer …` on the next request.
 * Over the IPC contract (dispatch, exactly as main and the preview bridge call it), with the real
 * reference service, a real capture server on another port, SQLite and the keychain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractHandlers, ProfileView } from '../../shared/contract';
import type { AppError, Result } from '../../shared/errors';
import { createCoreServices, type CoreServices } from '../../electron/core/services';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { startCaptureServer, type CaptureServer } from '../helpers/captureServer';
import { testKeyStore } from '../helpers/keychain';

const STORED_KEY = 'stored-key-9c1e7a5b3d2f4680';
const ATTACKER_KEY = 'attacker-own-key-1234';

let service: DemoService;
let capture: CaptureServer;
let core: CoreServices;
let profile: ProfileView;
const dataDir = mkdtempSync(join(tmpdir(), 'report-desk-readdress-'));

const invoke = (channel: string, input?: unknown) =>
  dispatch(core.handlers as ContractHandlers, channel, input);
const errorOf = (result: Result<unknown>): AppError => {
  if (result.ok) throw new Error('expected a failure, the call succeeded');
  return result.error;
};

beforeAll(async () => {
  service = await startDemoService({
    accounts: [{ apiKey: STORED_KEY, account: { id: 1, name: 'Owner' } }],
    reportsPerAccount: 5,
  });
  capture = await startCaptureServer();
  core = await createCoreServices({
    dataDir,
    keyStore: testKeyStore().store,
    probeIntervalMs: 0,
  });
  const added = await invoke('profiles:add', { name: 'Work', baseUrl: service.baseUrl, apiKey: STORED_KEY });
  if (!added.ok) throw new Error(added.error.message);
  profile = added.value as ProfileView;
});
afterAll(async () => {
  await core.close();
  await capture.stop();
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a compromised renderer re-pointing a profile to steal its key', () => {
  it('a new host without the key is refused, nothing is saved, and the capture server hears nothing', async () => {
    const error = errorOf(await invoke('profiles:update', { id: profile.id, baseUrl: capture.origin }));
    expect(error).toMatchObject({ kind: 'invalid_input', reason: 'key_required' });
    expect(error.message).toBe(
      'A new service address needs the API key again: enter the key for that service, and it is checked there before the change is saved.',
    );
    expect(error.fieldErrors?.apiKey).toBeDefined();
    // The next list goes where it always did, with the stored key.
    expect((await invoke('reports:list', {})).ok).toBe(true);
    const list = (await invoke('profiles:list')) as Result<{ profiles: ProfileView[] }>;
    expect(list.ok && list.value.profiles[0].baseUrl).toBe(service.baseUrl);
    expect(capture.requests).toHaveLength(0);
  });

  it.each([
    ['another port of the same host', () => `http://127.0.0.1:${capture.port}`],
    ['another host name for the same port', () => service.baseUrl.replace('127.0.0.1', 'localhost')],
    ['another scheme', () => service.baseUrl.replace('http:', 'https:')],
  ])('%s counts as a new address', async (_what, target) => {
    const error = errorOf(await invoke('profiles:update', { id: profile.id, baseUrl: target() }));
    expect(error.reason).toBe('key_required');
  });

  it('turning on insecure http needs the key too', async () => {
    const error = errorOf(await invoke('profiles:update', { id: profile.id, allowInsecureHttp: true }));
    expect(error.reason).toBe('key_required');
  });

  it('a wrong key for the real service at a new name is checked there and nothing is saved', async () => {
    const localhost = service.baseUrl.replace('127.0.0.1', 'localhost');
    const error = errorOf(
      await invoke('profiles:update', { id: profile.id, baseUrl: localhost, apiKey: 'not-the-key-0000' }),
    );
    expect(error.kind).toBe('unauthorized');
    const list = (await invoke('profiles:list')) as Result<{ profiles: ProfileView[] }>;
    expect(list.ok && list.value.profiles[0].baseUrl).toBe(service.baseUrl);
    expect((await invoke('reports:list', {})).ok).toBe(true);
  });

  it('a renamed profile or a new path on the same origin keeps its key without asking', async () => {
    const renamed = await invoke('profiles:update', { id: profile.id, name: 'Work 2' });
    expect(renamed.ok).toBe(true);
    const samePath = await invoke('profiles:update', {
      id: profile.id,
      baseUrl: `${service.baseUrl}/api/v1/`,
    });
    expect(samePath.ok).toBe(true);
    expect((await invoke('reports:list', {})).ok).toBe(true);
  });

  it('the right key at a new address is checked there, then saved with the address', async () => {
    const localhost = service.baseUrl.replace('127.0.0.1', 'localhost');
    const moved = await invoke('profiles:update', { id: profile.id, baseUrl: localhost, apiKey: STORED_KEY });
    expect(moved.ok).toBe(true);
    expect(moved.ok && (moved.value as ProfileView).baseUrl).toBe(localhost);
    expect((await invoke('reports:list', {})).ok).toBe(true);
  });

  it('with its own key the attacker only ever sends its own key to its server', async () => {
    const moved = await invoke('profiles:update', {
      id: profile.id,
      baseUrl: capture.origin,
      apiKey: ATTACKER_KEY,
    });
    expect(moved.ok).toBe(true);
    await invoke('reports:list', {});
    await invoke('account:get');
    expect(capture.requests.length).toBeGreaterThan(0);
    expect(capture.everything()).toContain(ATTACKER_KEY);
    expect(capture.everything()).not.toContain(STORED_KEY);
  });
});
