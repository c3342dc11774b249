/**
 * Keys in the keychain that no profile names (electron/core/keys/orphanedKeys.ts) and the
 * repairs channels over them (gateway/repairsService.ts): what a killed `profiles add` or
 * `profiles remove` left, what a damaged profiles file left, what another data folder's keys
 * are (not ours), and restoring or removing them — with the real keychain where one runs.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RepairsStatus } from '../../shared/contract';
import { MemoryKeyStore, type KeyStore } from '../../electron/core/keys/keyStore';
import { KeyVault } from '../../electron/core/keys/keyVault';
import { OrphanedKeys } from '../../electron/core/keys/orphanedKeys';
import { silentLogger } from '../../electron/core/log';
import { ProfileStore } from '../../electron/core/profiles/profileStore';
import { createCoreServices, dataPaths, type CoreServices } from '../../electron/core/services';
import { deadOwnerToken } from '../helpers/deadOwner';
import { testKeyStore } from '../helpers/keychain';
import { profileInput } from '../helpers/profilesFile';

let dir: string;
let file: string;
let keychain: KeyStore;
let store: ProfileStore;
let cleared: string[];
let orphans: OrphanedKeys;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-orphans-'));
  file = join(dir, 'profiles.json');
  keychain = new MemoryKeyStore();
  store = new ProfileStore(file);
  cleared = [];
  orphans = new OrphanedKeys({
    keys: new KeyVault(keychain),
    profiles: store,
    profilesFile: file,
    clearScope: (id) => cleared.push(id),
    logger: silentLogger,
  });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const KEY = 'key-0123456789-abcd';

/** profiles.json with a record of `change` made by a process that is gone. */
function leftByKilledProcess(change: Record<string, unknown>): void {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    file,
    JSON.stringify({
      ...saved,
      pending: [{ at: '2026-11-01T00:00:00.000Z', owner: deadOwnerToken(), ...change }],
    }),
  );
}

describe('keys no profile names', () => {
  it('an add killed after its key: the key is offered with the profile to restore, which then works', async () => {
    store.add(profileInput('Kept'));
    await keychain.set('added-1', KEY);
    leftByKilledProcess({
      id: 'added-1',
      op: 'add',
      profile: { name: 'New', baseUrl: 'https://n.example', allowInsecureHttp: false },
    });
    expect(await orphans.find()).toEqual([
      {
        account: 'added-1',
        keyHint: 'abcd',
        profile: { name: 'New', baseUrl: 'https://n.example' },
        foundIn: 'interrupted_add',
      },
    ]);
    expect(await orphans.restore()).toBe(1);
    expect(store.get('added-1')).toMatchObject({ name: 'New', baseUrl: 'https://n.example' });
    expect(await keychain.get('added-1')).toBe(KEY);
    expect(await orphans.find()).toEqual([]);
    expect(store.pendingKeyChanges()).toEqual([]);
  });

  it('an add killed before its key left nothing: its record is forgotten', async () => {
    store.add(profileInput('Kept'));
    leftByKilledProcess({
      id: 'added-2',
      op: 'add',
      profile: { name: 'New', baseUrl: 'https://n.example', allowInsecureHttp: false },
    });
    expect(await orphans.find()).toEqual([]);
    expect(store.pendingKeyChanges()).toEqual([]);
  });

  it('a remove killed after its profile went is finished: the key deleted, the cached rows dropped', async () => {
    store.add(profileInput('Kept'));
    await keychain.set('removed-1', KEY);
    leftByKilledProcess({ id: 'removed-1', op: 'remove' });
    expect(await orphans.find()).toEqual([]);
    expect(await keychain.get('removed-1')).toBeNull();
    expect(cleared).toEqual(['removed-1']);
    expect(store.pendingKeyChanges()).toEqual([]);
  });

  it('a change another process is making right now is no orphan', async () => {
    store.add(profileInput('Kept'));
    store.beginKeyChange({
      id: 'adding-now',
      op: 'add',
      profile: { name: 'Soon', baseUrl: 'https://s.example', allowInsecureHttp: false },
    });
    await keychain.set('adding-now', KEY);
    expect(await orphans.find()).toEqual([]);
    expect(store.pendingKeyChanges()).toHaveLength(1);
  });

  it('a key of a profile the backup still has is offered; removed, it is gone from the keychain', async () => {
    const gone = store.add(profileInput('Gone'));
    store.add(profileInput('Kept'));
    // Removed by hand from the file (a damaged list restored from an older copy, say): the key stays.
    store.remove(gone.id);
    await keychain.set(gone.id, KEY);
    expect(await orphans.find()).toEqual([
      {
        account: gone.id,
        keyHint: 'abcd',
        profile: { name: 'Gone', baseUrl: 'https://reports.example.com' },
        foundIn: 'backup',
      },
    ]);
    expect(await orphans.remove(['someone-else'])).toBe(0);
    expect(await orphans.remove([gone.id])).toBe(1);
    expect(await keychain.get(gone.id)).toBeNull();
    expect(await orphans.find()).toEqual([]);
  });

  it('a key a damaged copy names is offered, with its profile where it could be salvaged', async () => {
    store.add(profileInput('Kept'));
    writeFileSync(
      `${file}.corrupt-2026-01-01T000000000Z`,
      '{"version": 1, "profiles": [{"id": "lost-1", "name": "Lost", "baseUrl": "https://l.example"}, {"id": "lost-2", "na',
    );
    await keychain.set('lost-1', KEY);
    await keychain.set('lost-2', 'short');
    const found = await orphans.find();
    expect(found).toEqual([
      {
        account: 'lost-1',
        keyHint: 'abcd',
        profile: { name: 'Lost', baseUrl: 'https://l.example' },
        foundIn: 'damaged_file',
      },
      { account: 'lost-2', keyHint: null, profile: null, foundIn: null },
    ]);
    // Only what is known comes back; the other stays offered for removal.
    expect(await orphans.restore()).toBe(1);
    expect((await orphans.find()).map((orphan) => orphan.account)).toEqual(['lost-2']);
  });

  it('a key this folder has no trace of belongs to another data folder sharing the keychain: never an orphan', async () => {
    store.add(profileInput('Kept'));
    await keychain.set('other-folder', KEY);
    expect(await orphans.find()).toEqual([]);
  });

  it('a keychain that cannot list its keys finds none', async () => {
    const listless: KeyStore = {
      get: keychain.get.bind(keychain),
      set: keychain.set.bind(keychain),
      delete: keychain.delete.bind(keychain),
    };
    const gone = store.add(profileInput('Gone'));
    store.add(profileInput('Kept'));
    store.remove(gone.id);
    await listless.set(gone.id, KEY);
    const blind = new OrphanedKeys({
      keys: new KeyVault(listless),
      profiles: store,
      profilesFile: file,
      clearScope: () => undefined,
      logger: silentLogger,
    });
    expect(await blind.find()).toEqual([]);
  });

  it('with the real keychain: found through its list of credentials, hints only', async () => {
    const real = testKeyStore();
    const vault = new KeyVault(real.store);
    const gone = store.add(profileInput('Gone'));
    store.add(profileInput('Kept'));
    store.remove(gone.id);
    await real.store.set(gone.id, KEY);
    try {
      const onKeychain = new OrphanedKeys({
        keys: vault,
        profiles: store,
        profilesFile: file,
        clearScope: () => undefined,
        logger: silentLogger,
      });
      expect(await onKeychain.find()).toMatchObject([
        { account: gone.id, keyHint: 'abcd', foundIn: 'backup' },
      ]);
      expect(await onKeychain.remove()).toBe(1);
      expect(await real.store.get(gone.id)).toBeNull();
    } finally {
      await real.store.delete(gone.id).catch(() => false);
    }
  });
});

describe('the repairs channels', () => {
  let core: CoreServices;
  let keys: MemoryKeyStore;
  let dataDir: string;
  afterEach(async () => core?.close());

  async function started(): Promise<CoreServices> {
    dataDir = join(dir, 'data');
    keys = new MemoryKeyStore();
    core = await createCoreServices({ dataDir, keyStore: keys, probeIntervalMs: 0 });
    return core;
  }

  it('say what was repaired, until dismissed, announcing each change', async () => {
    const { handlers, events, repairs } = await started();
    const heard: RepairsStatus[] = [];
    events.subscribe((event, payload) => {
      if (event === 'repairs:changed') heard.push(payload as RepairsStatus);
    });
    expect(await handlers['repairs:status'](undefined)).toEqual({
      notices: [],
      profilesDamaged: null,
      orphanedKeys: [],
    });
    const notice = repairs.note({
      kind: 'cache_set_aside',
      details: {
        asideAs: 'x',
        reportsLost: 3,
        during: 'use',
        kept: ['profiles', 'settings', 'changes'],
        refillProfileIds: [],
      },
    });
    const status = await handlers['repairs:status'](undefined);
    expect(status.notices).toEqual([notice]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.at(-1)?.notices).toEqual([notice]);
    expect(await handlers['repairs:dismiss']({ id: notice.id })).toEqual({
      notices: [],
      profilesDamaged: null,
      orphanedKeys: [],
    });
    expect(heard.at(-1)?.notices).toEqual([]);
  });

  it('restore and remove orphaned keys; the profiles are announced again', async () => {
    const { handlers, events, profiles } = await started();
    const a = profiles.add(profileInput('A'));
    const b = profiles.add(profileInput('B'));
    profiles.add(profileInput('C'));
    profiles.remove(a.id);
    profiles.remove(b.id);
    // The backup holds B (the list before the last change), and B's key is still there.
    await keys.set(b.id, KEY);
    const changed: string[] = [];
    events.subscribe((event) => changed.push(event));
    expect((await handlers['repairs:status'](undefined)).orphanedKeys.map((o) => o.account)).toEqual([b.id]);
    const after = await handlers['repairs:restoreKeys']({ accounts: [b.id] });
    expect(after.orphanedKeys).toEqual([]);
    expect(changed).toContain('profiles:changed');
    expect((await handlers['profiles:list'](undefined)).profiles.map((p) => p.name)).toEqual(['C', 'B']);
    profiles.remove(b.id);
    expect((await handlers['repairs:removeKeys'](undefined)).orphanedKeys).toEqual([]);
    expect(await keys.get(b.id)).toBeNull();
  });

  it('a damaged profiles file without a backup: every profile channel says so, until the user starts afresh', async () => {
    dataDir = join(dir, 'data');
    const paths = dataPaths(dataDir);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(paths.profiles, '{"version": 1, "profiles": [');
    keys = new MemoryKeyStore();
    core = await createCoreServices({ dataDir, keyStore: keys, probeIntervalMs: 0 });
    const failed = await core.handlers['profiles:list'](undefined).catch((e: unknown) => e);
    expect(failed).toMatchObject({
      error: { kind: 'damaged', reason: 'profiles_damaged', details: { file: paths.profiles } },
    });
    const status = await core.handlers['repairs:status'](undefined);
    expect(status.profilesDamaged).toEqual({
      file: paths.profiles,
      asideAs: expect.stringContaining('profiles.json.corrupt-'),
    });
    expect(await core.handlers['profiles:startAfresh'](undefined)).toEqual({ profiles: [], activeId: null });
    expect((await core.handlers['repairs:status'](undefined)).profilesDamaged).toBeNull();
  });
});
