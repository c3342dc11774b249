/**
 * Connections (issue 22): the connection a request gets, at once when the key is held in
 * memory and after the keychain otherwise, and the client it is sent with, kept while the
 * address and key stay the same. Real parts: a profiles file, SQLite, an HTTP server on
 * 127.0.0.1 that records the key each request carried.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppFailure } from '../../shared/errors';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { Connections, type DemoLauncher } from '../../electron/core/gateway/connection';
import { KeyVault } from '../../electron/core/keys/keyVault';
import { MemoryKeyStore, type KeyStore } from '../../electron/core/keys/keyStore';
import { silentLogger } from '../../electron/core/log';
import { ProfileStore } from '../../electron/core/profiles/profileStore';
import { startCaptureServer, type CaptureServer } from '../helpers/captureServer';
import { tempProfilesFile } from '../helpers/profilesFile';

let dir: string;
let profiles: ProfileStore;
let cache: ReportCache;
let server: CaptureServer;
let keychainReads: number;
let keychain: KeyStore;

beforeEach(async () => {
  const paths = tempProfilesFile('report-desk-connections-');
  dir = paths.dir;
  profiles = new ProfileStore(paths.file);
  cache = ReportCache.open(join(dir, 'data', 'cache.sqlite'));
  server = await startCaptureServer();
  keychainReads = 0;
  const memory = new MemoryKeyStore();
  keychain = {
    get: (account) => {
      keychainReads += 1;
      return memory.get(account);
    },
    set: (account, secret) => memory.set(account, secret),
    delete: (account) => memory.delete(account),
  } as KeyStore;
});

afterEach(async () => {
  profiles.close();
  cache.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

function connections(keys: KeyVault, demo?: DemoLauncher): Connections {
  return new Connections({ profiles, keys, cache, fetch: globalThis.fetch, logger: silentLogger, demo });
}

async function profileWithKey(keys: KeyVault, name: string, key: string): Promise<string> {
  const profile = profiles.add({ name, baseUrl: server.origin, allowInsecureHttp: false, demo: false });
  await keys.set(profile.id, key, { sessionOnly: false });
  keys.stamp(profile.id, profiles.markKeyChanged(profile.id).keySetAt ?? '');
  profiles.setActive(profile.id);
  return profile.id;
}

const sentKeys = () => server.requests.map((request) => request.headers.authorization);

describe('Connections.active', () => {
  it('answers at once when the key is held in memory, after the keychain when it is not', async () => {
    const keys = new KeyVault(keychain);
    const id = await profileWithKey(keys, 'Held', 'connections-held-key-1');
    const held = connections(keys).active();
    expect(held).not.toBeInstanceOf(Promise);
    expect(held).toEqual({
      scope: id,
      baseUrl: server.origin,
      apiKey: 'connections-held-key-1',
      allowInsecureHttp: false,
      keyOfProfile: id,
    });
    expect(keychainReads).toBe(0);

    // Another process stored a new key: the copy in memory is stale, the keychain is read.
    keys.forgetCopies();
    await keychain.set(id, 'connections-held-key-2');
    profiles.markKeyChanged(id);
    const read = connections(keys).active();
    expect(read).toBeInstanceOf(Promise);
    expect((await read).apiKey).toBe('connections-held-key-2');
    expect(keychainReads).toBe(1);
    // Read once, then held.
    expect(connections(keys).active()).toMatchObject({ apiKey: 'connections-held-key-2' });
    expect(keychainReads).toBe(1);
  });

  it('waits for the demo service, which may come back on another port', async () => {
    const keys = new KeyVault(keychain);
    const demo: DemoLauncher = {
      ensureRunning: async () => ({ baseUrl: server.origin, apiKey: 'connections-demo-key' }),
      stop: async () => undefined,
    };
    const profile = profiles.add({
      name: 'Demo',
      baseUrl: 'http://127.0.0.1:9',
      allowInsecureHttp: false,
      demo: true,
    });
    profiles.setActive(profile.id);
    const active = connections(keys, demo).active();
    expect(active).toBeInstanceOf(Promise);
    expect(await active).toEqual({
      scope: profile.id,
      baseUrl: server.origin,
      apiKey: 'connections-demo-key',
      allowInsecureHttp: false,
    });
    expect(profiles.get(profile.id)?.baseUrl).toBe(server.origin);
  });

  it('refuses with no_profile when none is active, and says when no key is stored', async () => {
    const keys = new KeyVault(keychain);
    expect(() => connections(keys).active()).toThrow(AppFailure);
    const profile = profiles.add({
      name: 'Keyless',
      baseUrl: server.origin,
      allowInsecureHttp: false,
      demo: false,
    });
    profiles.setActive(profile.id);
    await expect(connections(keys).active()).rejects.toMatchObject({
      error: { kind: 'unauthorized', reason: 'no_key_stored' },
    });
  });
});

describe('Connections.client', () => {
  it('keeps the client while address and key stay the same, and never sends a replaced key', async () => {
    const keys = new KeyVault(keychain);
    const id = await profileWithKey(keys, 'Kept', 'connections-kept-key-1');
    const gateway = connections(keys);
    const first = await gateway.active();
    const client = gateway.client(first);
    expect(gateway.client(await gateway.active())).toBe(client);
    await client.getAccount();

    // The key is replaced: the next request gets a new client, with the new key.
    await keys.set(id, 'connections-kept-key-2', { sessionOnly: false });
    keys.stamp(id, profiles.markKeyChanged(id).keySetAt ?? '');
    const replaced = gateway.client(await gateway.active());
    expect(replaced).not.toBe(client);
    await replaced.getAccount();
    expect(sentKeys()).toEqual(['Bearer connections-kept-key-1', 'Bearer connections-kept-key-2']);

    // Another address, or the same one allowed over plain http: another client each time.
    const elsewhere = {
      ...first,
      apiKey: 'connections-kept-key-2',
      baseUrl: `http://localhost:${server.port}`,
    };
    expect(gateway.client(elsewhere)).not.toBe(replaced);
    const insecure = { ...elsewhere, allowInsecureHttp: true };
    expect(gateway.client(insecure)).not.toBe(gateway.client(elsewhere));
  });

  it('builds a client of its own for other settings, and keeps none of them', async () => {
    const keys = new KeyVault(keychain);
    await profileWithKey(keys, 'Settings', 'connections-settings-key');
    const gateway = connections(keys);
    const connection = await gateway.active();
    const usual = gateway.client(connection);
    const quick = gateway.client(connection, { timeoutMs: 5_000 });
    const once = gateway.client(connection, { retry: { maxAttempts: 1 } });
    expect(new Set([usual, quick, once]).size).toBe(3);
    expect(gateway.client(connection, { timeoutMs: 5_000 })).not.toBe(quick);
    expect(gateway.client(connection)).toBe(usual);
  });
});
