/**
 * The gateway: one object implementing every channel of the IPC contract, for the Electron
 * main process, the browser preview and the CLI alike.
 *
 *  - Online first: reads go to the service and are written through to the cache; a read
 *    that fails with a network error or a time-out is answered from the cache, marked
 *    `source: "cache"` with the time it was fetched, and connectivity turns offline.
 *  - While offline, reads go straight to the cache (no time-out per click) and a light probe
 *    runs in the background; writes are refused with an `offline` error (nothing is queued).
 *  - Keys come from the key vault and are held in memory only; the renderer sees hints.
 */
import { createHash } from 'node:crypto';
import type {
  AccountResult,
  CacheOverview,
  CacheStatus,
  ChannelParsedInput,
  ExportResult,
  ExportSaveResult,
  OpenedLink,
  ResultCounts,
  ContractHandlers,
  ProfilesState,
  ProfileView,
  ReportPageResult,
  ReportResult as SourcedReport,
  SyncSummary,
} from '../../../shared/contract';
import { AppFailure, appError, type AppError } from '../../../shared/errors';
import { normalizeListQuery, type Account, type ListQuery } from '../../../shared/model';
import { normalizeBaseUrl } from '../api/baseUrl';
import { ReportServiceClient, type RetryPolicy } from '../api/client';
import { runFullSync, SYNC_RUNNING_MESSAGE } from '../cache/fullSync';
import { LAST_FULL_SYNC_META, type ReportCache } from '../cache/reportCache';
import { parseDeepLink } from '../desktop/deepLink';
import { collectAllPages, exportFileName, formatReports, type ExportFormat } from '../export/exporter';
import type { EventHub } from '../events';
import type { KeyVault } from '../keys/keyVault';
import type { Logger } from '../log';
import { saltedScope } from '../cache/scopeSalt';
import { ProfileStore, type StoredProfile } from '../profiles/profileStore';
import { Connectivity } from './connectivity';

/** What a request needs: where to send it, with which key, and where to cache the answer. */
export interface Connection {
  scope: string;
  baseUrl: string;
  apiKey: string;
  allowInsecureHttp: boolean;
  /** Set when the key came from the key vault for this profile: a 401 re-reads it once. */
  keyOfProfile?: string;
}

/** Starts (or reuses) the embedded demo service; the gateway does not know how. */
export interface DemoLauncher {
  ensureRunning(preferredPort?: number): Promise<{ baseUrl: string; apiKey: string }>;
  stop(): Promise<void>;
}

export interface GatewayOptions {
  profiles: ProfileStore;
  keys: KeyVault;
  cache: ReportCache;
  events: EventHub;
  fetch: typeof globalThis.fetch;
  logger: Logger;
  now?: () => Date;
  openExternal?: (url: string) => Promise<void>;
  /**
   * Asks where to save an export and writes it (the app's save dialog); answers the path, or
   * null when the user cancelled. Without it, front ends save exports themselves (a download).
   */
  saveExport?: (fileName: string, format: ExportFormat, content: string) => Promise<string | null>;
  demo?: DemoLauncher;
  client?: { timeoutMs?: number; retry?: Partial<RetryPolicy> };
  /** How often to probe the service while offline; 0 turns background probing off. */
  probeIntervalMs?: number;
  /**
   * A fixed connection instead of profiles (the CLI with REPORT_DESK_API_KEY): its cache
   * scope is an HMAC of the base URL and key under `scopeSalt`, never the key or its plain hash.
   */
  fixedConnection?: Omit<Connection, 'scope'>;
  /** Answer reads from the cache when the service cannot be reached (default true; the CLI's --no-cache turns it off). */
  offlineFallback?: boolean;
  /** The data dir, when other local users can read it (reported in cache:status). */
  exposedDataDir?: string;
  /** The data dir's salt for fixed-connection cache scopes (required with fixedConnection). */
  scopeSalt?: Buffer;
  /** How long a full sync's cross-process claim lasts unrenewed (default 20 s; tests shorten it). */
  syncLeaseMs?: number;
}

const ACCOUNT_FINGERPRINT = 'account_fingerprint';
const DEMO_PORT = 'demo_port';

/**
 * Identifies the account behind a key, so a key of another account never sees this cache.
 * Only stable fields count (id, uuid, email): counters and names change without the account
 * changing. Without any of them, a hash of the whole record stands in, and it is compared only
 * when a new key is stored (see rememberAccount).
 */
export function accountFingerprint(account: Account): { value: string; stable: boolean } {
  for (const field of ['id', 'uuid', 'email']) {
    const value = account[field];
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') {
      return { value: `${field}:${value}`, stable: true };
    }
  }
  const hash = createHash('sha256').update(JSON.stringify(account)).digest('hex').slice(0, 32);
  return { value: 'hash:' + hash, stable: false };
}

function isUnauthorized(thrown: unknown): boolean {
  return thrown instanceof AppFailure && thrown.error.kind === 'unauthorized';
}

function isUnreachable(error: AppError): boolean {
  return error.kind === 'network' || error.kind === 'timeout';
}

export class Gateway {
  readonly handlers: ContractHandlers;
  readonly connectivity: Connectivity;
  private readonly now: () => Date;
  /** Keys read from the vault, with the profile's keySetAt they were read under. */
  private readonly keyCache = new Map<string, { key: string; keySetAt: string }>();
  private sync: { profileId: string; controller: AbortController } | null = null;
  private exporting: AbortController | null = null;
  /** The CLI's --profile: this session acts on that profile without changing the saved choice. */
  private pinnedProfileId: string | null = null;
  private readonly log: Logger;

  constructor(private readonly options: GatewayOptions) {
    this.now = options.now ?? (() => new Date());
    this.log = options.logger.child('gateway');
    this.connectivity = new Connectivity(
      options.events,
      this.now,
      async (signal) => {
        const connection = await this.activeConnection();
        await this.client(connection, { retry: { maxAttempts: 1 }, timeoutMs: 5_000 }).getAccount({ signal });
      },
      options.probeIntervalMs ?? 15_000,
    );
    this.handlers = this.buildHandlers();
    this.lastActiveId = options.profiles.activeId();
    this.stopWatchingProfiles = options.profiles.onExternalChange(() => this.profilesChangedElsewhere());
  }

  private readonly stopWatchingProfiles: () => void;

  /**
   * Another process changed the profiles: forget every key held in memory (the next request
   * re-reads the keychain), and tell the front end so its screens update.
   */
  private profilesChangedElsewhere(): void {
    this.keyCache.clear();
    const active = this.activeProfileId();
    if (this.pinnedProfileId !== null && !this.options.profiles.get(this.pinnedProfileId)) {
      this.sync?.controller.abort();
    }
    if (active !== this.lastActiveId) {
      this.lastActiveId = active;
      this.connectivity.reset();
    }
    void this.announceProfiles().catch((error: unknown) =>
      this.log.warn('Announcing a profile change failed.', {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  /** The active profile as last seen, to notice another process switching it. */
  private lastActiveId: string | null;

  async close(): Promise<void> {
    this.stopWatchingProfiles();
    this.sync?.controller.abort();
    this.connectivity.close();
    await this.options.demo?.stop();
  }

  // ---- Connections and clients ------------------------------------------------------------

  private client(
    connection: Connection,
    overrides: { timeoutMs?: number; retry?: Partial<RetryPolicy> } = {},
  ): ReportServiceClient {
    return new ReportServiceClient({
      baseUrl: connection.baseUrl,
      apiKey: connection.apiKey,
      allowInsecureHttp: connection.allowInsecureHttp,
      fetch: this.options.fetch,
      timeoutMs: overrides.timeoutMs ?? this.options.client?.timeoutMs ?? 8_000,
      retry: { maxAttempts: 2, ...this.options.client?.retry, ...overrides.retry },
      logger: this.options.logger.child('api'),
    });
  }

  /** Acts on `profileId` for the rest of this session, leaving the saved active profile alone. */
  pinProfile(profileId: string): void {
    this.options.profiles.requireProfile(profileId);
    this.pinnedProfileId = profileId;
  }

  private activeProfileId(): string | null {
    return this.pinnedProfileId ?? this.options.profiles.activeId();
  }

  private activeProfile(): StoredProfile {
    const id = this.activeProfileId();
    const profile = id ? this.options.profiles.get(id) : undefined;
    if (!profile) throw new AppFailure(appError('no_profile'));
    return profile;
  }

  private async keyFor(profile: StoredProfile): Promise<string> {
    const keySetAt = profile.keySetAt ?? '';
    const known = this.keyCache.get(profile.id);
    // A key stored since (by any process) bumps keySetAt: the copy in memory is then stale.
    if (known && known.keySetAt === keySetAt) return known.key;
    this.keyCache.delete(profile.id);
    const stored = await this.options.keys.load(profile.id);
    if (!stored) {
      throw new AppFailure(
        appError(
          'unauthorized',
          `No API key is stored for the profile “${profile.name}”. Add it in Keys & profiles.`,
          { reason: 'no_key_stored' },
        ),
      );
    }
    this.keyCache.set(profile.id, { key: stored.key, keySetAt });
    return stored.key;
  }

  private async connectionFor(profile: StoredProfile): Promise<Connection> {
    if (profile.demo && this.options.demo) {
      const port = Number(this.options.cache.getMeta(profile.id, DEMO_PORT)) || undefined;
      const demo = await this.options.demo.ensureRunning(port);
      if (demo.baseUrl !== profile.baseUrl) {
        // The demo service may come back on another port; its data (and our cache) is the same.
        this.options.profiles.update(profile.id, { baseUrl: demo.baseUrl });
        this.options.cache.setMeta(profile.id, DEMO_PORT, new URL(demo.baseUrl).port);
      }
      return { scope: profile.id, baseUrl: demo.baseUrl, apiKey: demo.apiKey, allowInsecureHttp: false };
    }
    return {
      scope: profile.id,
      baseUrl: profile.baseUrl,
      apiKey: await this.keyFor(profile),
      allowInsecureHttp: profile.allowInsecureHttp,
      keyOfProfile: profile.id,
    };
  }

  private async activeConnection(): Promise<Connection> {
    const fixed = this.options.fixedConnection;
    if (fixed) return { ...fixed, scope: this.fixedScope(fixed) };
    return this.connectionFor(this.activeProfile());
  }

  /** The scope of the active connection without touching the keychain (for cache-only channels). */
  private activeScope(): string | null {
    const fixed = this.options.fixedConnection;
    if (fixed) return this.fixedScope(fixed);
    return this.activeProfileId();
  }

  /** A connection without profiles: its scope is salted, so the cache never holds a key's plain hash. */
  private fixedScope(fixed: Omit<Connection, 'scope'>): string {
    const salt = this.options.scopeSalt;
    if (!salt)
      throw new Error('A fixed connection needs the data dir’s scope salt (GatewayOptions.scopeSalt).');
    return saltedScope(salt, fixed.baseUrl, fixed.apiKey);
  }

  /**
   * After a 401: the connection with the key the vault holds now, or null when the key did
   * not change (or did not come from the vault) and the 401 stands.
   */
  private async withRereadKey(connection: Connection): Promise<Connection | null> {
    if (connection.keyOfProfile === undefined) return null;
    this.keyCache.delete(connection.keyOfProfile);
    const profile = this.options.profiles.get(connection.keyOfProfile);
    if (!profile) return null;
    const again = await this.connectionFor(profile);
    if (again.apiKey === connection.apiKey) return null;
    this.log.info('the key was replaced meanwhile; asking again with the new one');
    return again;
  }

  /**
   * Runs a request; on a 401 with a key from the vault, re-reads the key once (another
   * process may have replaced it) and runs the request again only when the key did change.
   */
  private async withCurrentKey<T>(
    connection: Connection,
    request: (connection: Connection) => Promise<T>,
  ): Promise<T> {
    try {
      return await request(connection);
    } catch (thrown) {
      if (!isUnauthorized(thrown)) throw thrown;
      const again = await this.withRereadKey(connection);
      if (!again) throw thrown;
      return request(again);
    }
  }

  // ---- Online first, cache fallback ----------------------------------------------------------

  /**
   * Runs a read against the service; on a network error or time-out (or while already
   * offline) answers from the cache instead. `fromCache` returns null when the cache has
   * nothing for this read, and then the original error stands.
   */
  private async read<T>(
    online: (connection: Connection) => Promise<T>,
    fromCache: (scope: string) => T | null,
  ): Promise<T> {
    const connection = await this.activeConnection();
    const fallback = this.options.offlineFallback ?? true;
    if (!this.connectivity.online && fallback) {
      const cached = fromCache(connection.scope);
      if (cached !== null) {
        void this.connectivity.check();
        return cached;
      }
    }
    try {
      const value = await this.withCurrentKey(connection, online);
      this.connectivity.markOnline();
      return value;
    } catch (thrown) {
      if (!(thrown instanceof AppFailure) || !isUnreachable(thrown.error)) throw thrown;
      this.connectivity.markOffline(thrown.error);
      if (!fallback) throw thrown;
      const cached = fromCache(connection.scope);
      if (cached !== null) return cached;
      throw new AppFailure(
        appError(
          'offline',
          `${thrown.error.message} Nothing for this view is in the offline cache yet; once the service can be reached, use “Make available offline”.`,
        ),
      );
    }
  }

  /** Runs a write; unreachable → an `offline` error that says the change was not made. */
  private async write<T>(action: (connection: Connection) => Promise<T>): Promise<T> {
    const connection = await this.activeConnection();
    try {
      const value = await this.withCurrentKey(connection, action);
      this.connectivity.markOnline();
      return value;
    } catch (thrown) {
      if (!(thrown instanceof AppFailure) || !isUnreachable(thrown.error)) throw thrown;
      this.connectivity.markOffline(thrown.error);
      throw new AppFailure(
        thrown.error.kind === 'network'
          ? appError(
              'offline',
              'The Report Service cannot be reached, so the change was not made. Try again when it is back.',
            )
          : appError(
              'timeout',
              'The Report Service did not answer in time, so the change may or may not have been made. Refresh to check before trying again.',
            ),
      );
    }
  }

  // ---- Profiles ----------------------------------------------------------------------------

  private async profileView(profile: StoredProfile): Promise<ProfileView> {
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

  private async profilesState(): Promise<ProfilesState> {
    const profiles = await Promise.all(this.options.profiles.list().map((p) => this.profileView(p)));
    return { profiles, activeId: this.options.profiles.activeId() };
  }

  private async announceProfiles(): Promise<ProfilesState> {
    const state = await this.profilesState();
    this.lastActiveId = this.activeProfileId();
    this.options.events.emit('profiles:changed', state);
    return state;
  }

  /** Checks a base URL and key by reading the account; throws the service's reason. */
  private async testConnection(baseUrl: string, allowInsecureHttp: boolean, apiKey: string) {
    // The client registers the key as a secret and normalises the base URL (or refuses it).
    const client = this.client(
      { scope: 'test', baseUrl, apiKey, allowInsecureHttp },
      { retry: { maxAttempts: 1 } },
    );
    const account = await client.getAccount();
    return { baseUrl: client.baseUrl, account };
  }

  /**
   * Stores the account and clears the scope's cache when the key now belongs to another
   * account. On ordinary reads only stable fields decide; when a new key was just stored
   * (`newKey`), an account without stable fields is compared by its whole record, as the
   * cautious choice for a rare, deliberate action.
   */
  private rememberAccount(scope: string, account: Account, newKey = false): void {
    const fingerprint = accountFingerprint(account);
    const previous = this.options.cache.getMeta(scope, ACCOUNT_FINGERPRINT);
    const comparable = newKey || (fingerprint.stable && previous?.startsWith('hash:') === false);
    if (previous !== null && comparable && previous !== fingerprint.value) {
      // Another account's data must never be shown under this key.
      this.log.info('account changed; clearing the cache of this scope', { scope });
      this.options.cache.clearScope(scope);
    }
    this.options.cache.setMeta(scope, ACCOUNT_FINGERPRINT, fingerprint.value);
    this.options.cache.putAccount(scope, account, this.now().toISOString());
  }

  /** The gateway's wording of a name clash (the store refuses one too, as a last guard). */
  private assertNameFree(name: string, ownId?: string): void {
    const clash = this.options.profiles.findByName(name);
    if (clash && clash.id !== ownId) {
      throw new AppFailure(
        appError('invalid_input', `A profile named “${name}” already exists. Choose another name.`, {
          fieldErrors: { name: ['A profile with this name already exists.'] },
        }),
      );
    }
  }

  /**
   * Stores a key for an existing profile and bumps its keySetAt, so every process drops the
   * old key. When the profile was removed meanwhile (by another process), the key just
   * written is removed again: no orphan keychain entry.
   */
  private async storeKey(profileId: string, apiKey: string, sessionOnly: boolean): Promise<void> {
    await this.options.keys.set(profileId, apiKey, { sessionOnly });
    let profile: StoredProfile;
    try {
      profile = this.options.profiles.markKeyChanged(profileId);
    } catch (thrown) {
      await this.options.keys.delete(profileId).catch(() => undefined);
      throw thrown;
    }
    this.keyCache.set(profileId, { key: apiKey, keySetAt: profile.keySetAt ?? '' });
  }

  private async addProfile(input: ChannelParsedInput<'profiles:add'>): Promise<ProfileView> {
    const { profiles } = this.options;
    // Before the connection test: a name that cannot be saved should not cost a request.
    this.assertNameFree(input.name);
    const { baseUrl, account } = await this.testConnection(
      input.baseUrl,
      input.allowInsecureHttp,
      input.apiKey,
    );
    // The key first, under the new profile's id: other processes never see the profile
    // without its key. If the profile then cannot be added (a name taken meanwhile by another
    // process, a full disk), the key is removed again.
    const id = ProfileStore.newId();
    await this.options.keys.set(id, input.apiKey, { sessionOnly: input.sessionOnly });
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
      await this.options.keys.delete(id).catch((error: unknown) =>
        this.log.warn('Removing the key of a profile that could not be added failed.', {
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      throw thrown;
    }
    this.keyCache.set(id, { key: input.apiKey, keySetAt: '' });
    this.rememberAccount(profile.id, account, true);
    profiles.setActive(profile.id);
    this.connectivity.reset();
    await this.announceProfiles();
    return this.profileView(profile);
  }

  private async updateProfile(input: ChannelParsedInput<'profiles:update'>): Promise<ProfileView> {
    const { profiles, cache } = this.options;
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
            'invalid_input',
            'A new service address needs the API key again: enter the key for that service, and it is checked there before the change is saved.',
            { reason: 'key_required', fieldErrors: { apiKey: ['Enter the API key for the new address.'] } },
          ),
        );
      }
      const tested = await this.testConnection(baseUrl, allowInsecureHttp, input.apiKey);
      baseUrl = tested.baseUrl;
      checked = { apiKey: input.apiKey, account: tested.account };
    }
    // The key first: the old key must never be paired with the new address, not even by
    // another process reading the profile between the two writes.
    const previousKey = checked ? await this.options.keys.load(input.id).catch(() => null) : null;
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
    if (baseUrl !== current.baseUrl) {
      // Another service: what we cached belongs to the old one.
      cache.clearScope(input.id);
    }
    if (checked) this.rememberAccount(input.id, checked.account);
    if (newAddress) this.connectivity.reset();
    await this.announceProfiles();
    return this.profileView(updated);
  }

  private async setKey(input: ChannelParsedInput<'profiles:setKey'>): Promise<ProfileView> {
    const profile = this.options.profiles.requireProfile(input.id);
    const { account } = await this.testConnection(profile.baseUrl, profile.allowInsecureHttp, input.apiKey);
    await this.storeKey(profile.id, input.apiKey, input.sessionOnly);
    this.rememberAccount(profile.id, account, true);
    await this.announceProfiles();
    return this.profileView(profile);
  }

  private async removeProfile(id: string): Promise<ProfilesState> {
    const { profiles, keys, cache } = this.options;
    profiles.requireProfile(id);
    if (this.sync?.profileId === id) this.sync.controller.abort();
    const wasActive = profiles.activeId() === id;
    await keys.delete(id);
    this.keyCache.delete(id);
    cache.clearScope(id);
    try {
      profiles.remove(id);
    } catch (thrown) {
      // Removed meanwhile by another process: the result the user asked for.
      if (!(thrown instanceof AppFailure && thrown.error.kind === 'not_found')) throw thrown;
    }
    // Once more after the profile is gone: a key another process stored for it in between
    // (a "set key" racing this remove) would otherwise stay behind in the keychain.
    await keys.delete(id).catch(() => undefined);
    if (wasActive) this.connectivity.reset();
    return this.announceProfiles();
  }

  private async activate(id: string): Promise<ProfilesState> {
    this.options.profiles.setActive(id);
    this.connectivity.reset();
    return this.announceProfiles();
  }

  private async startDemo(): Promise<ProfilesState> {
    const { demo, profiles } = this.options;
    if (!demo) throw new AppFailure(appError('internal', 'The demo service is not available in this build.'));
    let profile = profiles.list().find((p) => p.demo);
    const running = await demo.ensureRunning(
      profile ? Number(this.options.cache.getMeta(profile.id, DEMO_PORT)) || undefined : undefined,
    );
    if (!profile) {
      const name = profiles.findByName('Demo') ? 'Demo (local)' : 'Demo';
      profile = profiles.add({ name, baseUrl: running.baseUrl, allowInsecureHttp: false, demo: true });
    } else if (profile.baseUrl !== running.baseUrl) {
      profile = profiles.update(profile.id, { baseUrl: running.baseUrl });
    }
    this.options.cache.setMeta(profile.id, DEMO_PORT, new URL(running.baseUrl).port);
    // The demo key is a published constant, so a keychain that is unavailable is no obstacle.
    await this.storeKey(profile.id, running.apiKey, false).catch(() =>
      this.storeKey(profile.id, running.apiKey, true),
    );
    profiles.setActive(profile.id);
    this.connectivity.reset();
    return this.announceProfiles();
  }

  // ---- Reports, account, cache --------------------------------------------------------------

  private listReports(query: ListQuery): Promise<ReportPageResult> {
    return this.read<ReportPageResult>(
      async (connection) => {
        const page = await this.client(connection).listReports(query);
        const fetchedAt = this.now().toISOString();
        // Written right after this answer, before any later use of the cache (see putReportsSoon).
        this.options.cache.putReportsSoon(connection.scope, page.reports, fetchedAt);
        return { ...page, source: 'network' as const, fetchedAt };
      },
      (scope) => {
        const status = this.options.cache.status(scope);
        if (status.reportCount === 0) return null;
        const { page, fetchedAt } = this.options.cache.query(scope, normalizeListQuery(query));
        const age = fetchedAt ?? status.lastFullSyncAt ?? this.now().toISOString();
        return { ...page, source: 'cache' as const, fetchedAt: age };
      },
    );
  }

  private getReport(id: string): Promise<SourcedReport> {
    return this.read<SourcedReport>(
      async (connection) => {
        const report = await this.client(connection)
          .getReport(id)
          .catch((thrown: unknown) => {
            // Gone from the service: gone from this connection's cache too.
            if (thrown instanceof AppFailure && thrown.error.kind === 'not_found') {
              this.options.cache.removeReport(connection.scope, id);
            }
            throw thrown;
          });
        const fetchedAt = this.now().toISOString();
        this.options.cache.putReport(connection.scope, report, fetchedAt);
        return { report, source: 'network' as const, fetchedAt };
      },
      (scope) => {
        const cached = this.options.cache.getReport(scope, id);
        return cached
          ? { report: cached.report, source: 'cache' as const, fetchedAt: cached.fetchedAt }
          : null;
      },
    );
  }

  private getAccount(): Promise<AccountResult> {
    return this.read<AccountResult>(
      async (connection) => {
        const account = await this.client(connection).getAccount();
        this.rememberAccount(connection.scope, account);
        return { account, source: 'network' as const, fetchedAt: this.now().toISOString() };
      },
      (scope) => {
        const cached = this.options.cache.getAccount(scope);
        return cached
          ? { account: cached.account, source: 'cache' as const, fetchedAt: cached.fetchedAt }
          : null;
      },
    );
  }

  private cacheStatus(): CacheStatus {
    const scope = this.activeScope();
    const status = scope
      ? this.options.cache.status(scope)
      : { reportCount: 0, sizeBytes: 0, lastFullSyncAt: null };
    const { exposedDataDir } = this.options;
    // A sync of this scope may be running in another process (its unexpired lease).
    const lease = scope ? this.options.cache.syncLease(scope) : null;
    const elsewhere = lease !== null && lease.expiresAt > this.now().getTime();
    return {
      profileId: scope,
      ...status,
      syncing: this.sync !== null || elsewhere,
      ...(exposedDataDir ? { exposedDataDir } : {}),
    };
  }

  private async fullSync(): Promise<SyncSummary> {
    if (this.sync) {
      // Same refusal as a sync running in another process (runFullSync's lease).
      throw new AppFailure(appError('busy', SYNC_RUNNING_MESSAGE, { reason: 'sync_running' }));
    }
    const connection = await this.activeConnection();
    const controller = new AbortController();
    this.sync = { profileId: connection.scope, controller };
    let client = this.client(connection);
    // A 401 on the first page re-reads the key once (see withCurrentKey); later pages were
    // already asked with this key, and mixing two keys' listings in one run is never right.
    const firstPage = async (signal: AbortSignal | undefined) => {
      const ask = () =>
        client.listReports({ per_page: 100, sort_by: 'id', sort: 'asc', page: 1 }, { signal });
      try {
        return await ask();
      } catch (thrown) {
        if (!isUnauthorized(thrown)) throw thrown;
        const again = await this.withRereadKey(connection);
        if (!again) throw thrown;
        client = this.client(again);
        return ask();
      }
    };
    try {
      const summary = await runFullSync({
        cache: this.options.cache,
        scope: connection.scope,
        signal: controller.signal,
        now: this.now,
        leaseMs: this.options.syncLeaseMs,
        fetchPage: (page, signal) =>
          page === 1
            ? firstPage(signal)
            : client.listReports(
                { per_page: 100, sort_by: 'id', sort: 'asc', page },
                { signal, retryRateLimited: false },
              ),
        onProgress: (progress) =>
          this.options.events.emit('sync:progress', { ...progress, profileId: connection.scope }),
      });
      this.connectivity.markOnline();
      return summary;
    } catch (thrown) {
      if (thrown instanceof AppFailure && isUnreachable(thrown.error))
        this.connectivity.markOffline(thrown.error);
      throw thrown;
    } finally {
      this.sync = null;
    }
  }

  // ---- Export, overview, links ---------------------------------------------------------------

  /** Every page of the query, in the largest pages, each from the service or (offline) the cache. */
  private async exportReports(input: ChannelParsedInput<'reports:export'>): Promise<ExportResult> {
    if (this.exporting) {
      throw new AppFailure(
        appError('invalid_input', 'An export is already running. Wait for it to finish or cancel it.'),
      );
    }
    const controller = new AbortController();
    this.exporting = controller;
    try {
      const collected = await collectAllPages({
        fetchPage: (page) => this.listReports({ ...input.query, per_page: 100, page }),
        signal: controller.signal,
        onProgress: (progress) => this.options.events.emit('export:progress', progress),
      });
      const now = this.now();
      const { source, fetchedAt } = collected.origin;
      const content = formatReports(input.format, collected.reports, {
        exportedAt: now.toISOString(),
        source,
        fetchedAt,
        total: collected.total,
      });
      return {
        format: input.format,
        content,
        fileName: exportFileName(input.format, now),
        count: collected.reports.length,
        pages: collected.pages,
        source,
        fetchedAt,
        saveBy: this.options.saveExport ? 'dialog' : 'download',
      };
    } finally {
      this.exporting = null;
    }
  }

  private async saveExport(input: ChannelParsedInput<'export:save'>): Promise<ExportSaveResult> {
    const save = this.options.saveExport;
    if (!save) return { saved: false, path: null, download: true };
    const path = await save(input.fileName, input.format, input.content);
    return { saved: path !== null, path, download: false };
  }

  /** Result counts of the synced cache for the list's filters; null before a full sync. */
  private overview(input: ChannelParsedInput<'cache:overview'>): CacheOverview | null {
    const scope = this.activeScope();
    if (!scope) return null;
    const lastFullSyncAt = this.options.cache.getMeta(scope, LAST_FULL_SYNC_META);
    if (lastFullSyncAt === null) return null;
    const query = normalizeListQuery(input);
    const rows = this.options.cache.resultCounts(scope, query);
    const empty = (): ResultCounts => ({ good: 0, decent: 0, bad: 0, other: 0 });
    const counts = empty();
    const byProject = new Map<string, ResultCounts>();
    for (const row of rows) {
      const bucket =
        row.result === 'good' || row.result === 'decent' || row.result === 'bad' ? row.result : 'other';
      counts[bucket] += row.n;
      let project = byProject.get(row.project);
      if (!project) byProject.set(row.project, (project = empty()));
      project[bucket] += row.n;
    }
    const projects = [...byProject.entries()]
      .map(([project, c]) => ({ project, ...c }))
      // Named projects by name; reports without a project last.
      .sort((a, b) => (a.project === '' ? 1 : b.project === '' ? -1 : a.project < b.project ? -1 : 1));
    return { counts, projects, lastFullSyncAt };
  }

  /** A reportdesk:// link: its profile made active when named (and known), then its route. */
  private async openLink(url: string): Promise<OpenedLink> {
    const target = parseDeepLink(url);
    if (!target) {
      throw new AppFailure(
        appError(
          'invalid_input',
          'That is not a ReportDesk link. A link looks like reportdesk://report/12?profile=…; copy it again.',
        ),
      );
    }
    if (target.profileId === null) return { path: target.path, profileId: null };
    const profile = this.options.profiles.get(target.profileId);
    if (!profile) {
      throw new AppFailure(
        appError(
          'not_found',
          `The link is for the profile “${target.profileId}”, which is not set up on this computer. Add that profile (same service and key) or ask for a link without a profile.`,
        ),
      );
    }
    if (this.options.profiles.activeId() !== profile.id) await this.activate(profile.id);
    return { path: target.path, profileId: profile.id };
  }

  private async openExternal(url: string): Promise<{ opened: boolean }> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AppFailure(appError('invalid_input', 'That is not a web address, so it was not opened.'));
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new AppFailure(
        appError('invalid_input', 'Only http:// and https:// addresses are opened in the browser.'),
      );
    }
    if (!this.options.openExternal) return { opened: false };
    await this.options.openExternal(parsed.toString());
    return { opened: true };
  }

  private buildHandlers(): ContractHandlers {
    return {
      'profiles:list': () => this.profilesState(),
      'profiles:add': (input) => this.addProfile(input),
      'profiles:update': (input) => this.updateProfile(input),
      'profiles:remove': ({ id }) => this.removeProfile(id),
      'profiles:activate': ({ id }) => this.activate(id),
      'profiles:setKey': (input) => this.setKey(input),
      'profiles:testConnection': async (input) =>
        (await this.testConnection(input.baseUrl, input.allowInsecureHttp, input.apiKey)).account,
      'profiles:startDemo': () => this.startDemo(),

      'reports:list': (query) => this.listReports(query),
      'reports:get': ({ id }) => this.getReport(id),
      'reports:create': (fields) =>
        this.write(async (connection) => {
          const report = await this.client(connection).createReport(fields);
          this.options.cache.putReport(connection.scope, report, this.now().toISOString());
          return report;
        }),
      'reports:update': ({ id, changes }) =>
        this.write(async (connection) => {
          const report = await this.client(connection).updateReport(id, changes);
          this.options.cache.putReport(connection.scope, report, this.now().toISOString());
          return report;
        }),
      'reports:delete': ({ id }) =>
        this.write(async (connection) => {
          try {
            await this.client(connection).deleteReport(id);
          } catch (thrown) {
            if (thrown instanceof AppFailure && thrown.error.kind === 'not_found') {
              this.options.cache.removeReport(connection.scope, id);
            }
            throw thrown;
          }
          this.options.cache.removeReport(connection.scope, id);
          return { deleted: id };
        }),

      'reports:export': (input) => this.exportReports(input),
      'reports:cancelExport': async () => {
        const running = this.exporting;
        running?.abort();
        return { cancelled: running !== null };
      },
      'export:save': (input) => this.saveExport(input),

      'account:get': () => this.getAccount(),

      'cache:status': async () => this.cacheStatus(),
      'cache:sync': () => this.fullSync(),
      'cache:cancelSync': async () => {
        const running = this.sync;
        running?.controller.abort();
        return { cancelled: running !== null };
      },
      'cache:clear': async () => {
        const scope = this.activeScope();
        if (scope) {
          if (this.sync?.profileId === scope) this.sync.controller.abort();
          this.options.cache.clearScope(scope);
        }
        return this.cacheStatus();
      },
      'cache:projects': async () => {
        const scope = this.activeScope();
        return scope ? this.options.cache.projects(scope) : [];
      },
      'cache:overview': async (input) => this.overview(input),

      'connectivity:status': async () => this.connectivity.current,
      'connectivity:check': () => this.connectivity.check(),

      'shell:openExternal': ({ url }) => this.openExternal(url),
      'links:open': ({ url }) => this.openLink(url),
    };
  }
}
