/**
 * The profile lifecycle: add (checked against the service first), update, set a key, remove,
 * activate, start the demo; and noticing when another process changed the profiles. Keys go
 * to the key vault before the profile that uses them, so no process sees one without the other.
 */
import type { ChannelParsedInput, ProfilesState, ProfileView } from '../../../shared/contract';
import { AppFailure, appError, englishOf } from '../../../shared/errors';
import type { Account } from '../../../shared/model';
import { normalizeBaseUrl } from '../api/baseUrl';
import type { ReportCache } from '../cache/reportCache';
import { crashPoint } from '../crashPoints';
import type { EventHub } from '../events';
import type { KeyVault } from '../keys/keyVault';
import type { Logger } from '../log';
import { ProfileStore, type StoredProfile } from '../profiles/profileStore';
import type { Accounts } from './accounts';
import { DEMO_PORT, type Connections } from './connection';
import type { Connectivity } from './connectivity';
import { PerProfileQueue } from './perProfileQueue';
import type { SyncService } from './syncService';

export interface ProfilesServiceOptions {
  profiles: ProfileStore;
  keys: KeyVault;
  cache: ReportCache;
  events: EventHub;
  logger: Logger;
  connections: Connections;
  connectivity: Connectivity;
  accounts: Accounts;
  sync: SyncService;
}

/** The active profile's id, or null while the profiles file cannot be used (every request says why). */
function activeOrNone(profiles: ProfileStore): string | null {
  try {
    return profiles.activeId();
  } catch {
    return null;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class ProfilesService {
  private readonly queue = new PerProfileQueue();
  private readonly log: Logger;
  /** The active profile as last seen, to notice another process switching it. */
  private lastActiveId: string | null;
  private readonly stopWatching: () => void;

  constructor(private readonly options: ProfilesServiceOptions) {
    this.log = options.logger.child('gateway');
    this.lastActiveId = activeOrNone(options.profiles);
    this.stopWatching = options.profiles.onExternalChange(() => this.changedElsewhere());
  }

  close(): void {
    this.stopWatching();
  }

  /**
   * Another process changed the profiles: forget every key held in memory (the next request
   * re-reads the keychain), and tell the front end so its screens update.
   */
  private changedElsewhere(): void {
    const { keys, connections, connectivity, sync } = this.options;
    keys.forgetCopies();
    if (connections.pinnedProfileGone()) sync.cancel();
    const active = connections.activeProfileId();
    if (active !== this.lastActiveId) {
      this.lastActiveId = active;
      connectivity.reset();
    }
    void this.announce().catch((error: unknown) =>
      this.log.warn('Announcing a profile change failed.', { error: messageOf(error) }),
    );
  }

  private async view(profile: StoredProfile): Promise<ProfileView> {
    const key = await this.options.keys.describe(profile.id).catch(() => ({
      hasKey: false,
      keyHint: null,
      keyStorage: 'none' as const,
    }));
    return {
      id: profile.id,
      name: profile.name,
      baseUrl: profile.baseUrl,
      allowInsecureHttp: profile.allowInsecureHttp,
      keyHint: key.keyHint,
      hasKey: key.hasKey,
      keyStorage: key.keyStorage,
      demo: profile.demo,
    };
  }

  async state(): Promise<ProfilesState> {
    const profiles = await Promise.all(this.options.profiles.list().map((p) => this.view(p)));
    return { profiles, activeId: this.options.profiles.activeId() };
  }

  /** Emits the profiles as they are now (after a change this service did not make: a repair). */
  async announce(): Promise<ProfilesState> {
    const state = await this.state();
    this.lastActiveId = this.options.connections.activeProfileId();
    this.options.events.emit('profiles:changed', state);
    return state;
  }

  /** Checks a base URL and key by reading the account; throws the service's reason. */
  async testConnection(baseUrl: string, allowInsecureHttp: boolean, apiKey: string) {
    // The client registers the key as a secret and normalises the base URL (or refuses it).
    const client = this.options.connections.client(
      { scope: 'test', baseUrl, apiKey, allowInsecureHttp },
      { retry: { maxAttempts: 1 } },
    );
    const account = await client.getAccount();
    return { baseUrl: client.baseUrl, account };
  }

  /** The gateway's wording of a name clash (the store refuses one too, as a last guard). */
  private assertNameFree(name: string, ownId?: string): void {
    const clash = this.options.profiles.findByName(name);
    if (clash && clash.id !== ownId) {
      throw new AppFailure(
        appError(
          'profile.name_taken',
          { name },
          {
            fieldErrors: { name: [englishOf({ code: 'field.profile_name_taken' })] },
            fieldWordings: { name: [{ code: 'field.profile_name_taken' }] },
          },
        ),
      );
    }
  }

  /**
   * Stores a key for an existing profile and bumps its keySetAt, so every process drops the
   * old key. When the profile was removed meanwhile (by another process), the key just
   * written is removed again: no orphan keychain entry.
   */
  private async storeKey(profileId: string, apiKey: string, sessionOnly: boolean): Promise<void> {
    const { keys, profiles } = this.options;
    await keys.set(profileId, apiKey, { sessionOnly });
    // Killed here: the profile has its new key (checked already); other processes read it at their next 401.
    crashPoint('keys.key-replaced');
    let profile: StoredProfile;
    try {
      profile = profiles.markKeyChanged(profileId);
    } catch (thrown) {
      await keys.delete(profileId).catch(() => undefined);
      throw thrown;
    }
    keys.stamp(profileId, profile.keySetAt ?? '');
  }

  async add(input: ChannelParsedInput<'profiles:add'>): Promise<ProfileView> {
    const { profiles, keys, accounts, connectivity } = this.options;
    // Before the connection test: a name that cannot be saved should not cost a request.
    this.assertNameFree(input.name);
    const { baseUrl, account } = await this.testConnection(
      input.baseUrl,
      input.allowInsecureHttp,
      input.apiKey,
    );
    // The key first, under the new profile's id: other processes never see the profile
    // without its key. If the profile then cannot be added (a name taken meanwhile by another
    // process, a full disk), the key is removed again. A record of the add comes before the
    // key, so that a process killed in between leaves a key that is known (keys/orphanedKeys.ts).
    const id = ProfileStore.newId();
    if (!input.sessionOnly) {
      profiles.beginKeyChange({
        id,
        op: 'add',
        profile: { name: input.name, baseUrl, allowInsecureHttp: input.allowInsecureHttp },
      });
      crashPoint('profiles.pending-written');
    }
    try {
      await keys.set(id, input.apiKey, { sessionOnly: input.sessionOnly });
    } catch (thrown) {
      if (!input.sessionOnly) profiles.endKeyChange(id);
      throw thrown;
    }
    crashPoint('profiles.key-stored');
    let profile: StoredProfile;
    try {
      profile = profiles.add({
        id,
        name: input.name,
        baseUrl,
        allowInsecureHttp: input.allowInsecureHttp,
        demo: false,
      });
    } catch (thrown) {
      await keys.delete(id).catch((error: unknown) =>
        this.log.warn('Removing the key of a profile that could not be added failed.', {
          error: messageOf(error),
        }),
      );
      if (!input.sessionOnly) {
        try {
          profiles.endKeyChange(id);
        } catch {
          // The file cannot be written now (the add failed for that): the record is settled later.
        }
      }
      throw thrown;
    }
    keys.stamp(id, profile.keySetAt ?? '');
    accounts.remember(profile.id, account, true);
    profiles.setActive(profile.id);
    connectivity.reset();
    await this.announce();
    return this.view(profile);
  }

  update(input: ChannelParsedInput<'profiles:update'>): Promise<ProfileView> {
    return this.queue.run(input.id, () => this.updateNow(input));
  }

  private async updateNow(input: ChannelParsedInput<'profiles:update'>): Promise<ProfileView> {
    const { profiles, cache, keys, accounts, connectivity } = this.options;
    const current = profiles.requireProfile(input.id);
    if (input.name !== undefined) this.assertNameFree(input.name, input.id);
    const allowInsecureHttp = input.allowInsecureHttp ?? current.allowInsecureHttp;
    let baseUrl =
      input.baseUrl !== undefined || input.allowInsecureHttp !== undefined
        ? normalizeBaseUrl(input.baseUrl ?? current.baseUrl, allowInsecureHttp)
        : current.baseUrl;
    // The stored key goes only where it was checked: another scheme, host or port, or plain
    // http newly allowed, needs the key again, checked at the new address before any saving.
    const newAddress =
      new URL(baseUrl).origin !== new URL(current.baseUrl).origin ||
      (allowInsecureHttp && !current.allowInsecureHttp);
    let checked: { apiKey: string; account: Account } | undefined;
    if (newAddress && !current.demo) {
      if (input.apiKey === undefined) {
        throw new AppFailure(
          appError(
            'profile.key_required',
            {},
            {
              reason: 'key_required',
              fieldErrors: { apiKey: [englishOf({ code: 'field.api_key_for_new_address' })] },
              fieldWordings: { apiKey: [{ code: 'field.api_key_for_new_address' }] },
            },
          ),
        );
      }
      const tested = await this.testConnection(baseUrl, allowInsecureHttp, input.apiKey);
      baseUrl = tested.baseUrl;
      checked = { apiKey: input.apiKey, account: tested.account };
    }
    // The key first: the old key must never be paired with the new address, not even by
    // another process reading the profile between the two writes.
    const previousKey = checked ? await keys.load(input.id).catch(() => null) : null;
    if (checked) await this.storeKey(input.id, checked.apiKey, previousKey?.storage === 'session');
    let updated: StoredProfile;
    try {
      updated = profiles.update(input.id, { name: input.name, baseUrl, allowInsecureHttp });
    } catch (thrown) {
      if (checked && previousKey) {
        await this.storeKey(input.id, previousKey.key, previousKey.storage === 'session');
      }
      throw thrown;
    }
    // Another service: what we cached belongs to the old one.
    if (baseUrl !== current.baseUrl) cache.clearScope(input.id);
    if (checked) accounts.remember(input.id, checked.account);
    if (newAddress) connectivity.reset();
    await this.announce();
    return this.view(updated);
  }

  setKey(input: ChannelParsedInput<'profiles:setKey'>): Promise<ProfileView> {
    return this.queue.run(input.id, async () => {
      const profile = this.options.profiles.requireProfile(input.id);
      const { account } = await this.testConnection(profile.baseUrl, profile.allowInsecureHttp, input.apiKey);
      await this.storeKey(profile.id, input.apiKey, input.sessionOnly);
      this.options.accounts.remember(profile.id, account, true);
      await this.announce();
      return this.view(profile);
    });
  }

  remove(id: string): Promise<ProfilesState> {
    return this.queue.run(id, () => this.removeNow(id));
  }

  /**
   * The profile first, with a record that its key goes next (in the same write), then the key,
   * the cached rows, the record. Killed anywhere, nothing is left for nobody: a profile is
   * either still there with its key, or gone with a record that finishes the removal
   * (keys/orphanedKeys.ts).
   */
  private async removeNow(id: string): Promise<ProfilesState> {
    const { profiles, keys, cache, sync, connectivity } = this.options;
    profiles.requireProfile(id);
    sync.cancel(id);
    const wasActive = profiles.activeId() === id;
    try {
      profiles.remove(id, { keyPending: true });
    } catch (thrown) {
      // Removed meanwhile by another process: the result the user asked for.
      if (!(thrown instanceof AppFailure && thrown.error.kind === 'not_found')) throw thrown;
    }
    crashPoint('profiles.profile-removed');
    try {
      await keys.delete(id);
      cache.clearScope(id);
      profiles.endKeyChange(id);
    } catch (thrown) {
      // The profile is gone, as asked; its record finishes the rest later (a locked keychain, a full disk).
      this.log.warn('The removed profile’s key or cached rows could not be dropped yet.', {
        error: messageOf(thrown),
      });
    }
    // Once more after the record is gone: a key another process stored for it in between
    // (a "set key" racing this remove) would otherwise stay behind in the keychain.
    await keys.delete(id).catch(() => undefined);
    if (wasActive) connectivity.reset();
    return this.announce();
  }

  async activate(id: string): Promise<ProfilesState> {
    this.options.profiles.setActive(id);
    this.options.connectivity.reset();
    return this.announce();
  }

  async startDemo(): Promise<ProfilesState> {
    const { profiles, cache, connectivity } = this.options;
    const demo = this.options.connections.demo;
    if (!demo) throw new AppFailure(appError('demo.unavailable'));
    let profile = profiles.list().find((p) => p.demo);
    const running = await demo.ensureRunning(
      profile ? Number(cache.getMeta(profile.id, DEMO_PORT)) || undefined : undefined,
    );
    if (!profile) {
      const name = profiles.findByName('Demo') ? 'Demo (local)' : 'Demo';
      profile = profiles.add({ name, baseUrl: running.baseUrl, allowInsecureHttp: false, demo: true });
    } else if (profile.baseUrl !== running.baseUrl) {
      profile = profiles.update(profile.id, { baseUrl: running.baseUrl });
    }
    cache.setMeta(profile.id, DEMO_PORT, new URL(running.baseUrl).port);
    const demoId = profile.id;
    // The demo key is a published constant, so a keychain that is unavailable is no obstacle.
    await this.storeKey(demoId, running.apiKey, false).catch(() =>
      this.storeKey(demoId, running.apiKey, true),
    );
    profiles.setActive(demoId);
    connectivity.reset();
    return this.announce();
  }
}
