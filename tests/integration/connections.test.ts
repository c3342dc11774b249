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
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { saltedScope } from '../../electron/core/cache/scopeSalt';
import { isNotFound, isUnauthorized } from '../../electron/core/gateway/connection';
import type { Logger } from '../../electron/core/log';
import { tempProfilesFile } from '../helpers/profilesFile';

let dir: string;
let profiles: ProfileStore;
let cache: ReportCache;
let server: KeyedServer;
let keychainReads: number;
let keychain: KeyStore;

beforeEach(async () => {
  const paths = tempProfilesFile('report-desk-connections-');
  dir = paths.dir;
  profiles = new ProfileStore(paths.file);
  cache = ReportCache.open(join(dir, 'data', 'cache.sqlite'));
  server = await startKeyedServer();
  keychainReads = 0;
  // The in-memory store every core test uses for keytar (the real keychain is proved in
  // keys.test.ts and, across processes, profilesProcesses.test.ts), with its reads counted.
  const memory = new MemoryKeyStore();
  const counted: KeyStore = {
    get: (account) => {
      keychainReads += 1;
      return memory.get(account);
    },
    set: (account, secret) => memory.set(account, secret),
    delete: (account) => memory.delete(account),
  };
  keychain = counted;
});

afterEach(async () => {
  profiles.close();
  cache.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

function connections(
  keys: KeyVault,
  demo?: DemoLauncher,
  more: Partial<ConstructorParameters<typeof Connections>[0]> = {},
): Connections {
  return new Connections({
    profiles,
    keys,
    cache,
    fetch: globalThis.fetch,
    logger: silentLogger,
    demo,
    ...more,
  });
}

/** A profile on the test server, made the active one. */
function activeProfile(name: string, demo = false) {
  const profile = profiles.add({ name, baseUrl: server.origin, allowInsecureHttp: false, demo });
  profiles.setActive(profile.id);
  return profile;
}

async function profileWithKey(keys: KeyVault, name: string, key: string): Promise<string> {
  const profile = activeProfile(name);
  await keys.set(profile.id, key, { sessionOnly: false });
  keys.stamp(profile.id, profiles.markKeyChanged(profile.id).keySetAt ?? '');
  return profile.id;
}

const sentKeys = () => server.sentKeys;

/**
 * An account endpoint on 127.0.0.1 that records the key of each request and answers as told:
 * the account for an accepted key (any key when none is set), 401 for another, 500, or late.
 * The spec leaves error bodies open (report-service-api.md §7, "not shown"); these are the
 * reference service's (`{message}` on 401, electron/demo-service/server.ts) and Laravel's 500.
 */
interface KeyedServer {
  origin: string;
  port: number;
  sentKeys: (string | undefined)[];
  accepted: string | null;
  answer: 'account' | 'failure' | 'late';
  stop(): Promise<void>;
}

async function startKeyedServer(): Promise<KeyedServer> {
  const state: KeyedServer = {
    origin: '',
    port: 0,
    sentKeys: [],
    accepted: null,
    answer: 'account',
    stop: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
  const http: Server = createServer((req, res) => {
    state.sentKeys.push(req.headers.authorization);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (state.answer === 'failure') return json(500, { message: 'Server Error' });
    if (state.accepted !== null && req.headers.authorization !== `Bearer ${state.accepted}`)
      return json(401, { message: 'Unauthenticated.' });
    const account = () => json(200, { data: { id: 1, name: 'Connections' } });
    if (state.answer === 'late') setTimeout(account, 300);
    else account();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  state.port = (http.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  return state;
}

/** A logger that keeps each line with the component it was written under. */
function recordingLogger(lines: string[], component = ''): Logger {
  const write = (message: string) => lines.push(`[${component}] ${message}`);
  return {
    debug: write,
    info: write,
    warn: write,
    error: write,
    child: (name) => recordingLogger(lines, name),
  };
}

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
    activeProfile('Keyless');
    await expect(connections(keys).active()).rejects.toMatchObject({
      error: { kind: 'unauthorized', reason: 'no_key_stored' },
    });
  });
});

describe('Connections.active for a key stored with its profile (never replaced)', () => {
  it('reads the keychain once, then holds the key', async () => {
    const keys = new KeyVault(keychain);
    const profile = activeProfile('First');
    await keychain.set(profile.id, 'connections-first-key');
    expect(profiles.get(profile.id)?.keySetAt).toBeUndefined();
    const gateway = connections(keys);
    expect(await gateway.active()).toMatchObject({ apiKey: 'connections-first-key' });
    expect(gateway.active()).toMatchObject({ apiKey: 'connections-first-key' });
    expect(keychainReads).toBe(1);
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

describe('Connections.active for a demo profile', () => {
  it('starts the demo service on the port it had, and remembers a new one', async () => {
    const keys = new KeyVault(keychain);
    const asked: (number | undefined)[] = [];
    let port = server.port;
    const demo: DemoLauncher = {
      ensureRunning: async (preferred) => {
        asked.push(preferred);
        return { baseUrl: `http://127.0.0.1:${port}`, apiKey: 'connections-demo-key' };
      },
      stop: async () => undefined,
    };
    const profile = activeProfile('Demo', true);
    // A key in the vault for it changes nothing: the demo service has its own.
    await keys.set(profile.id, 'connections-not-the-demo-key', { sessionOnly: true });
    const gateway = connections(keys, demo);
    expect(gateway.demo).toBe(demo);
    // Where it was: nothing to remember.
    expect(await gateway.active()).toMatchObject({ baseUrl: server.origin, apiKey: 'connections-demo-key' });
    expect(cache.getMeta(profile.id, 'demo_port')).toBeNull();
    port = server.port + 1;
    expect((await gateway.active()).baseUrl).toBe(`http://127.0.0.1:${port}`);
    expect(cache.getMeta(profile.id, 'demo_port')).toBe(String(port));
    await gateway.active();
    expect(asked).toEqual([undefined, undefined, port]);
  });

  it('is a profile like any other where no demo service can start (its key from the keychain)', async () => {
    const keys = new KeyVault(keychain);
    const profile = activeProfile('Demo', true);
    await expect(connections(keys).active()).rejects.toMatchObject({
      error: {
        kind: 'unauthorized',
        reason: 'no_key_stored',
        message: 'No API key is stored for the profile “Demo”. Store its key again.',
        details: { profileName: 'Demo' },
      },
    });
    await keys.set(profile.id, 'connections-demo-keychain-key', { sessionOnly: true });
    expect(connections(keys).active()).toMatchObject({ apiKey: 'connections-demo-keychain-key' });
  });
});

describe('Connections pinned to a profile (the CLI’s --profile)', () => {
  it('acts on the pinned profile whatever is active, until it is removed', async () => {
    const keys = new KeyVault(keychain);
    const pinned = await profileWithKey(keys, 'Pinned', 'connections-pinned-key');
    const active = await profileWithKey(keys, 'Active', 'connections-active-key');
    const gateway = connections(keys);
    expect(gateway.activeProfileId()).toBe(active);
    expect(gateway.activeScope()).toBe(active);
    expect(gateway.pinnedProfileGone()).toBe(false);

    gateway.pin(pinned);
    expect(gateway.activeProfileId()).toBe(pinned);
    expect(gateway.activeScope()).toBe(pinned);
    expect(gateway.active()).toMatchObject({ scope: pinned, apiKey: 'connections-pinned-key' });
    expect(profiles.activeId()).toBe(active);
    expect(gateway.pinnedProfileGone()).toBe(false);

    profiles.remove(pinned);
    expect(gateway.pinnedProfileGone()).toBe(true);
    expect(() => gateway.active()).toThrow(
      expect.objectContaining({ error: expect.objectContaining({ kind: 'no_profile' }) }),
    );
    expect(() => gateway.pin('no-such-profile')).toThrow(
      expect.objectContaining({ error: expect.objectContaining({ kind: 'not_found' }) }),
    );
  });

  it('answers a profile by id, active or not', async () => {
    const keys = new KeyVault(keychain);
    const other = await profileWithKey(keys, 'Other', 'connections-other-key');
    await profileWithKey(keys, 'Active', 'connections-active-key');
    expect(await connections(keys).forProfileId(other)).toMatchObject({
      scope: other,
      apiKey: 'connections-other-key',
    });
    await expect(connections(keys).forProfileId('no-such-profile')).rejects.toMatchObject({
      error: { kind: 'not_found' },
    });
  });
});

describe('a fixed connection (the CLI with REPORT_DESK_API_KEY)', () => {
  it('is cached under a salted scope, never the key or its plain hash', () => {
    const keys = new KeyVault(keychain);
    const fixedConnection = {
      baseUrl: server.origin,
      apiKey: 'connections-fixed-key',
      allowInsecureHttp: false,
    };
    const scopeSalt = Buffer.from('connections-test-salt');
    const gateway = connections(keys, undefined, { fixedConnection, scopeSalt });
    const scope = saltedScope(scopeSalt, server.origin, 'connections-fixed-key');
    expect(gateway.active()).toEqual({ ...fixedConnection, scope });
    expect(gateway.activeScope()).toBe(scope);
    expect(scope).not.toContain('connections-fixed-key');
    expect(() => connections(keys, undefined, { fixedConnection }).active()).toThrow(
      'A fixed connection needs the data dir’s scope salt (ConnectionsOptions.scopeSalt).',
    );
    expect(connections(keys).activeScope()).toBeNull();
  });
});

describe('Connections.withCurrentKey', () => {
  it('asks once more with the key another process stored meanwhile, and says so in its log', async () => {
    const keys = new KeyVault(keychain);
    const lines: string[] = [];
    const id = await profileWithKey(keys, 'Replaced', 'connections-old-key-1');
    const gateway = connections(keys, undefined, { logger: recordingLogger(lines) });
    const connection = await gateway.active();
    // Another process replaces the key: the keychain and the profile's stamp change.
    await keychain.set(id, 'connections-new-key-2');
    profiles.markKeyChanged(id);
    server.accepted = 'connections-new-key-2';
    const account = await gateway.withCurrentKey(connection, (c) => gateway.client(c).getAccount());
    expect(account).toMatchObject({ name: 'Connections' });
    expect(sentKeys()).toEqual(['Bearer connections-old-key-1', 'Bearer connections-new-key-2']);
    expect(lines).toContain('[gateway] the key was replaced meanwhile; asking again with the new one');
    expect(lines.some((line) => line.startsWith('[api] GET /api/v1/account 401'))).toBe(true);
  });

  it('lets the 401 stand when the key did not change, is not the vault’s, or its profile is gone', async () => {
    const keys = new KeyVault(keychain);
    const id = await profileWithKey(keys, 'Rejected', 'connections-rejected-key');
    server.accepted = 'another-key-entirely';
    const gateway = connections(keys);
    const ask = (c: Awaited<ReturnType<Connections['active']>>) =>
      gateway.withCurrentKey(c, (again) => gateway.client(again).getAccount());
    const rejected = { error: { kind: 'unauthorized' } };
    await expect(ask(await gateway.active())).rejects.toMatchObject(rejected);
    expect(sentKeys()).toHaveLength(1);
    const { keyOfProfile: _, ...notTheVaults } = await gateway.active();
    const readsBefore = keychainReads;
    await expect(ask(notTheVaults)).rejects.toMatchObject(rejected);
    expect(sentKeys()).toHaveLength(2);
    // Not the vault's key: the vault's copies are kept (no keychain read for the next request).
    expect(gateway.active()).not.toBeInstanceOf(Promise);
    expect(keychainReads).toBe(readsBefore);
    const connection = await gateway.active();
    profiles.remove(id);
    await expect(ask(connection)).rejects.toMatchObject(rejected);
    expect(sentKeys()).toHaveLength(3);
  });

  it('passes any other failure through as it is, asking once', async () => {
    const keys = new KeyVault(keychain);
    await profileWithKey(keys, 'Failing', 'connections-failing-key');
    server.answer = 'failure';
    const gateway = connections(keys, undefined, { client: { retry: { maxAttempts: 1 } } });
    await expect(
      gateway.withCurrentKey(await gateway.active(), (c) => gateway.client(c).getAccount()),
    ).rejects.toMatchObject({ error: { kind: 'server_error' } });
    expect(sentKeys()).toHaveLength(1);
    // Not a 401: the key held in memory is not doubted.
    expect(keychainReads).toBe(0);
  });
});

describe('the client’s settings', () => {
  it('tries a GET twice unless told otherwise, and waits as long as it is told', async () => {
    const keys = new KeyVault(keychain);
    await profileWithKey(keys, 'Settings', 'connections-settings-key');
    server.answer = 'failure';
    const quickRetry = { baseDelayMs: 1, maxDelayMs: 1 };
    const gateway = connections(keys, undefined, { client: { retry: quickRetry } });
    const connection = await gateway.active();
    await expect(gateway.client(connection).getAccount()).rejects.toMatchObject({
      error: { kind: 'server_error' },
    });
    expect(sentKeys()).toHaveLength(2);
    await expect(gateway.client(connection, { retry: { maxAttempts: 3 } }).getAccount()).rejects.toThrow();
    expect(sentKeys()).toHaveLength(5);

    // The service answers after 300 ms: a 100 ms limit (the app's setting) gives up, a longer one waits.
    server.answer = 'late';
    const impatient = connections(keys, undefined, { client: { timeoutMs: 100, retry: { maxAttempts: 1 } } });
    await expect(impatient.client(connection).getAccount()).rejects.toMatchObject({
      error: { kind: 'timeout' },
    });
    await expect(impatient.client(connection, { timeoutMs: 5_000 }).getAccount()).resolves.toMatchObject({
      name: 'Connections',
    });
    // Without a setting: 8 s, far more than the 300 ms.
    await expect(gateway.client(connection).getAccount()).resolves.toMatchObject({ name: 'Connections' });
    expect((gateway.client(connection) as unknown as { timeoutMs: number }).timeoutMs).toBe(8_000);
  });
});

describe('isNotFound and isUnauthorized', () => {
  it('recognise the app’s own failures of that kind only', () => {
    const failure = (kind: 'not_found' | 'unauthorized') =>
      new AppFailure({ kind, code: kind, message: kind });
    expect([isNotFound(failure('not_found')), isNotFound(failure('unauthorized'))]).toEqual([true, false]);
    expect([isUnauthorized(failure('unauthorized')), isUnauthorized(failure('not_found'))]).toEqual([
      true,
      false,
    ]);
    const lookalike = Object.assign(new Error('not found'), { error: { kind: 'not_found' } });
    expect([isNotFound(lookalike), isUnauthorized({ error: { kind: 'unauthorized' } })]).toEqual([
      false,
      false,
    ]);
  });
});
