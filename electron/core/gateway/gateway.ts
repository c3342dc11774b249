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
  CacheStatus,
  ChannelParsedInput,
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
import { runFullSync } from '../cache/fullSync';
import type { ReportCache } from '../cache/reportCache';
import type { EventHub } from '../events';
import type { KeyVault } from '../keys/keyVault';
import type { Logger } from '../log';
import type { ProfileStore, StoredProfile } from '../profiles/profileStore';
import { Connectivity } from './connectivity';

/** What a request needs: where to send it, with which key, and where to cache the answer. */
export interface Connection {
  scope: string;
  baseUrl: string;
  apiKey: string;
  allowInsecureHttp: boolean;
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
  demo?: DemoLauncher;
  client?: { timeoutMs?: number; retry?: Partial<RetryPolicy> };
  /** How often to probe the service while offline; 0 turns background probing off. */
  probeIntervalMs?: number;
  /**
   * A fixed connection instead of profiles (the CLI with REPORT_DESK_API_KEY): its cache
   * scope is derived from the base URL and a hash of the key, never the key itself.
   */
  fixedConnection?: Omit<Connection, 'scope'>;
  /** Answer reads from the cache when the service cannot be reached (default true; the CLI's --no-cache turns it off). */
  offlineFallback?: boolean;
}

const ACCOUNT_FINGERPRINT = 'account_fingerprint';
const DEMO_PORT = 'demo_port';

/** Derives a cache scope for a connection without profiles, without storing the key. */
export function fixedConnectionScope(baseUrl: string, apiKey: string): string {
  return 'env-' + createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex').slice(0, 32);
}

/** Identifies the account behind a key, so a key of another account never sees this cache. */
function accountFingerprint(account: Account): string {
  for (const field of ['id', 'uuid', 'email', 'name']) {
    const value = account[field];
    if (typeof value === 'string' || typeof value === 'number') return `${field}:${value}`;
  }
  return 'hash:' + createHash('sha256').update(JSON.stringify(account)).digest('hex').slice(0, 32);
}

function isUnreachable(error: AppError): boolean {
  return error.kind === 'network' || error.kind === 'timeout';
}

export class Gateway {
  readonly handlers: ContractHandlers;
  readonly connectivity: Connectivity;
  private readonly now: () => Date;
  private readonly keyCache = new Map<string, string>();
  private sync: { profileId: string; controller: AbortController } | null = null;
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
  }

  async close(): Promise<void> {
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
    const known = this.keyCache.get(profile.id);
    if (known) return known;
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
    this.keyCache.set(profile.id, stored.key);
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
    };
  }

  private async activeConnection(): Promise<Connection> {
    const fixed = this.options.fixedConnection;
    if (fixed) return { ...fixed, scope: fixedConnectionScope(fixed.baseUrl, fixed.apiKey) };
    return this.connectionFor(this.activeProfile());
  }

  /** The scope of the active connection without touching the keychain (for cache-only channels). */
  private activeScope(): string | null {
    const fixed = this.options.fixedConnection;
    if (fixed) return fixedConnectionScope(fixed.baseUrl, fixed.apiKey);
    return this.activeProfileId();
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
      const value = await online(connection);
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
      const value = await action(connection);
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

  private rememberAccount(scope: string, account: Account): void {
    const fingerprint = accountFingerprint(account);
    const previous = this.options.cache.getMeta(scope, ACCOUNT_FINGERPRINT);
    if (previous !== null && previous !== fingerprint) {
      // Another account's data must never be shown under this key.
      this.log.info('account changed; clearing the cache of this scope', { scope });
      this.options.cache.clearScope(scope);
    }
    this.options.cache.setMeta(scope, ACCOUNT_FINGERPRINT, fingerprint);
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

  private async storeKey(profileId: string, apiKey: string, sessionOnly: boolean): Promise<void> {
    await this.options.keys.set(profileId, apiKey, { sessionOnly });
    this.keyCache.set(profileId, apiKey);
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
    const profile = profiles.add({
      name: input.name,
      baseUrl,
      allowInsecureHttp: input.allowInsecureHttp,
      demo: false,
    });
    try {
      await this.storeKey(profile.id, input.apiKey, input.sessionOnly);
    } catch (thrown) {
      // No key, no profile: the user retries (perhaps "for this session only").
      profiles.remove(profile.id);
      throw thrown;
    }
    this.rememberAccount(profile.id, account);
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
    const baseUrl =
      input.baseUrl !== undefined || input.allowInsecureHttp !== undefined
        ? normalizeBaseUrl(input.baseUrl ?? current.baseUrl, allowInsecureHttp)
        : current.baseUrl;
    const updated = profiles.update(input.id, { name: input.name, baseUrl, allowInsecureHttp });
    if (baseUrl !== current.baseUrl) {
      // Another service: what we cached belongs to the old one.
      cache.clearScope(input.id);
    }
    await this.announceProfiles();
    return this.profileView(updated);
  }

  private async setKey(input: ChannelParsedInput<'profiles:setKey'>): Promise<ProfileView> {
    const profile = this.options.profiles.requireProfile(input.id);
    const { account } = await this.testConnection(profile.baseUrl, profile.allowInsecureHttp, input.apiKey);
    await this.storeKey(profile.id, input.apiKey, input.sessionOnly);
    this.rememberAccount(profile.id, account);
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
    profiles.remove(id);
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
    return { profileId: scope, ...status, syncing: this.sync !== null };
  }

  private async fullSync(): Promise<SyncSummary> {
    if (this.sync) {
      throw new AppFailure(
        appError(
          'invalid_input',
          'Reports are already being made available offline. Wait for it to finish or cancel it.',
        ),
      );
    }
    const connection = await this.activeConnection();
    const controller = new AbortController();
    this.sync = { profileId: connection.scope, controller };
    const client = this.client(connection);
    try {
      const summary = await runFullSync({
        cache: this.options.cache,
        scope: connection.scope,
        signal: controller.signal,
        now: this.now,
        fetchPage: (page, signal) =>
          client.listReports({ per_page: 100, sort_by: 'id', sort: 'asc', page }, { signal }),
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

      'connectivity:status': async () => this.connectivity.current,
      'connectivity:check': () => this.connectivity.check(),

      'shell:openExternal': ({ url }) => this.openExternal(url),
    };
  }
}
