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
import { EventHub } from '../../electron/core/events';
import { RepairsService } from '../../electron/core/gateway/repairsService';
import { LocalStore } from '../../electron/core/local/localStore';
import { RepairNotes } from '../../electron/core/local/repairNotes';
import { createLogger, memorySink, silentLogger } from '../../electron/core/log';
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

/** The test's keychain, listing its keys with `accounts` (none: a keychain that cannot list them). */
function keychainListing(accounts: KeyStore['accounts']): KeyStore {
  return {
    get: keychain.get.bind(keychain),
    set: keychain.set.bind(keychain),
    delete: keychain.delete.bind(keychain),
    accounts,
  };
}

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
    const listless = keychainListing(undefined);
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

describe('restoring and removing, closely', () => {
  const sink = memorySink();
  function watched(over: Partial<ConstructorParameters<typeof OrphanedKeys>[0]> = {}): OrphanedKeys {
    sink.lines.length = 0;
    return new OrphanedKeys({
      keys: new KeyVault(keychain),
      profiles: store,
      profilesFile: file,
      clearScope: (id) => cleared.push(id),
      logger: createLogger('test', sink),
      ...over,
    });
  }

  /** Two profiles removed from the list whose keys stayed (both in the backup: removed in one change). */
  async function twoOrphans(): Promise<[string, string]> {
    const a = store.add(profileInput('A'));
    const b = store.add(profileInput('B'));
    store.add(profileInput('Kept'));
    writeFileSync(
      file,
      JSON.stringify({
        ...JSON.parse(readFileSync(file, 'utf8')),
        profiles: store.list().filter((p) => p.name === 'Kept'),
      }),
    );
    store.close();
    store = new ProfileStore(file);
    await keychain.set(a.id, KEY);
    await keychain.set(b.id, KEY);
    return [a.id, b.id];
  }

  it('restores only the orphans named, says how many in the log, and nothing when none can be', async () => {
    const [a, b] = await twoOrphans();
    const repairs = watched();
    expect((await repairs.find()).map((o) => o.account).sort()).toEqual([a, b].sort());
    expect(await repairs.restore(['nobody'])).toBe(0);
    expect(sink.lines).toEqual([]);
    expect(await repairs.restore([a])).toBe(1);
    expect(store.get(a)?.name).toBe('A');
    expect(store.get(b)).toBeUndefined();
    expect(sink.lines.join('\n')).toMatch(/INFO \[test\] Profiles of orphaned keys restored\. \{"count":1\}/);
  });

  it('removes only the orphans named and logs how many; a key whose profile came back meanwhile stays', async () => {
    const [a, b] = await twoOrphans();
    expect(await watched().remove([])).toBe(0);
    expect(sink.lines).toEqual([]);
    // Another process restores B while this one lists the keychain.
    const racing = keychainListing(async () => {
      const listed = await keychain.accounts!();
      if (!store.get(b))
        store.restore([{ ...profileInput('B'), id: b, createdAt: '2026-01-01T00:00:00.000Z' }]);
      return listed;
    });
    const repairs = watched({ keys: new KeyVault(racing) });
    expect(await repairs.remove()).toBe(1);
    expect(await keychain.get(a)).toBeNull();
    expect(await keychain.get(b)).toBe(KEY);
    expect(sink.lines.join('\n')).toMatch(
      /INFO \[test\] Orphaned keys removed from the keychain\. \{"count":1\}/,
    );
  });

  it('with no evidence of any orphan, the keychain is not even listed', async () => {
    store.add(profileInput('Kept'));
    let listed = 0;
    const counting = keychainListing(async () => {
      listed++;
      return keychain.accounts!();
    });
    expect(await watched({ keys: new KeyVault(counting) }).find()).toEqual([]);
    expect(listed).toBe(0);
  });

  it('an interrupted add’s profile comes back as an ordinary profile (never a demo one)', async () => {
    store.add(profileInput('Kept'));
    await keychain.set('added-3', KEY);
    leftByKilledProcess({
      id: 'added-3',
      op: 'add',
      profile: { name: 'New', baseUrl: 'https://n.example', allowInsecureHttp: true },
    });
    expect(await watched().restore()).toBe(1);
    expect(store.get('added-3')).toMatchObject({ demo: false, allowInsecureHttp: true });
  });

  it('of two damaged copies, the one that kept the profile whole is preferred to one that kept only its id', async () => {
    store.add(profileInput('Kept'));
    writeFileSync(
      `${file}.corrupt-2026-01-02T000000000Z`,
      '{"version": 1, "profiles": [{"id": "lost-3", "na',
    );
    writeFileSync(
      `${file}.corrupt-2026-01-01T000000000Z`,
      '{"version": 1, "profiles": [{"id": "lost-3", "name": "Lost", "baseUrl": "https://l.example"}, {"id": "x',
    );
    await keychain.set('lost-3', KEY);
    expect(await watched().find()).toEqual([
      {
        account: 'lost-3',
        keyHint: 'abcd',
        profile: { name: 'Lost', baseUrl: 'https://l.example' },
        foundIn: 'damaged_file',
      },
    ]);
  });

  it('a remove finished for a killed process says so; cached rows it cannot drop are a warning, the key still goes', async () => {
    store.add(profileInput('Kept'));
    await keychain.set('removed-2', KEY);
    leftByKilledProcess({ id: 'removed-2', op: 'remove' });
    const repairs = watched({
      clearScope: () => {
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
      },
    });
    expect(await repairs.find()).toEqual([]);
    expect(await keychain.get('removed-2')).toBeNull();
    expect(store.pendingKeyChanges()).toEqual([]);
    const log = sink.lines.join('\n');
    expect(log).toMatch(
      /WARN \[test\] The cached rows of a removed profile could not be dropped\. \{"code":"SQLITE_IOERR"\}/,
    );
    expect(log).toMatch(/INFO \[test\] Finished the removal of a profile that a killed process had begun\./);
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

describe('the repairs service, on its own', () => {
  let local: LocalStore;
  let events: EventHub;
  let heard: RepairsStatus[];
  let announced: number;
  const sink = memorySink();
  beforeEach(() => {
    local = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
    events = new EventHub();
    heard = [];
    announced = 0;
    sink.lines.length = 0;
    events.subscribe((event, payload) => {
      if (event === 'repairs:changed') heard.push(payload as RepairsStatus);
    });
  });
  afterEach(() => local.close());

  function service(over: Partial<ConstructorParameters<typeof RepairsService>[0]> = {}): RepairsService {
    return new RepairsService({
      notes: new RepairNotes(local, silentLogger),
      profiles: store,
      orphans,
      events,
      announceProfiles: async () => {
        announced++;
        return { profiles: [], activeId: null };
      },
      logger: createLogger('test', sink),
      ...over,
    });
  }

  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('a keychain that fails when searched shows no orphans, and the log says why', async () => {
    const failing = keychainListing(() => Promise.reject(new Error('The keyring is locked')));
    const gone = store.add(profileInput('Gone'));
    store.add(profileInput('Kept'));
    store.remove(gone.id);
    const blind = new OrphanedKeys({
      keys: new KeyVault(failing),
      profiles: store,
      profilesFile: file,
      clearScope: () => undefined,
      logger: silentLogger,
    });
    expect((await service({ orphans: blind }).status()).orphanedKeys).toEqual([]);
    expect(sink.lines.join('\n')).toMatch(
      /WARN \[test:repairs\] The keychain could not be searched for orphaned keys\..*The keyring is locked/,
    );
  });

  it('restores every orphan’s profile when none is named, and announces the profiles only when one came back', async () => {
    const a = store.add(profileInput('A'));
    store.add(profileInput('B'));
    store.remove(a.id);
    const repairs = service();
    // Nothing to restore yet: the key is not in the keychain.
    await repairs.restoreKeys(undefined);
    expect(announced).toBe(0);
    await keychain.set(a.id, KEY);
    const after = await repairs.restoreKeys(undefined);
    expect(after.orphanedKeys).toEqual([]);
    expect(announced).toBe(1);
    expect(
      store
        .list()
        .map((p) => p.name)
        .sort(),
    ).toEqual(['A', 'B']);
    expect(heard.at(-1)).toEqual(after);
  });

  it('while the profiles file is damaged, no key is called an orphan', async () => {
    const gone = store.add(profileInput('Gone'));
    store.add(profileInput('Kept'));
    store.remove(gone.id);
    await keychain.set(gone.id, KEY);
    expect((await service().status()).orphanedKeys.map((o) => o.account)).toEqual([gone.id]);
    store.close();
    rmSync(`${file}.backup`, { force: true });
    writeFileSync(file, '{"version": 1, "profiles": [');
    store = new ProfileStore(file);
    const status = await service({ profiles: store }).status();
    expect(status.profilesDamaged).not.toBeNull();
    expect(status.orphanedKeys).toEqual([]);
  });

  it('announces each new notice until it is closed', async () => {
    const notes = new RepairNotes(local, silentLogger);
    const repairs = service({ notes });
    const notice = {
      kind: 'local_restored' as const,
      details: { asideAs: 'x', entriesLost: 0, backupSavedAt: null },
    };
    notes.note(notice);
    await settled();
    expect(heard).toHaveLength(1);
    repairs.close();
    notes.note(notice);
    await settled();
    expect(heard).toHaveLength(1);
  });
});
