/**
 * Which service a request goes to, with which key, and under which cache scope: the active
 * (or, for the CLI's --profile, pinned) profile, the demo service, or a fixed connection.
 * Keys come from the key vault, the one place they are held in memory.
 */
import { AppFailure, appError } from '../../../shared/errors';
import { ReportServiceClient, type RetryPolicy } from '../api/client';
import type { ReportCache } from '../cache/reportCache';
import { saltedScope } from '../cache/scopeSalt';
import type { KeyVault } from '../keys/keyVault';
import type { Logger } from '../log';
import type { ProfileStore, StoredProfile } from '../profiles/profileStore';

/** What a request needs: where to send it, with which key, and where to cache the answer. */
export interface Connection {
  scope: string;
  baseUrl: string;
  apiKey: string;
  allowInsecureHttp: boolean;
  /** Set when the key came from the key vault for this profile: a 401 re-reads it once. */
  keyOfProfile?: string;
}

/** Starts (or reuses) the embedded demo service; the core does not know how. */
export interface DemoLauncher {
  ensureRunning(preferredPort?: number): Promise<{ baseUrl: string; apiKey: string }>;
  stop(): Promise<void>;
}

export type ClientSettings = { timeoutMs?: number; retry?: Partial<RetryPolicy> };

/** The cache meta key under which the demo service's last port is kept. */
export const DEMO_PORT = 'demo_port';

export interface ConnectionsOptions {
  profiles: ProfileStore;
  keys: KeyVault;
  cache: ReportCache;
  fetch: typeof globalThis.fetch;
  logger: Logger;
  demo?: DemoLauncher;
  client?: ClientSettings;
  /**
   * A fixed connection instead of profiles (the CLI with REPORT_DESK_API_KEY): its cache
   * scope is an HMAC of the base URL and key under `scopeSalt`, never the key or its plain hash.
   */
  fixedConnection?: Omit<Connection, 'scope'>;
  /** The data dir's salt for fixed-connection cache scopes (required with fixedConnection). */
  scopeSalt?: Buffer;
}

/** A profile's connection with the key the vault gave for it (a 401 re-reads it once). */
function keyedConnection(profile: StoredProfile, apiKey: string): Connection {
  return {
    scope: profile.id,
    baseUrl: profile.baseUrl,
    apiKey,
    allowInsecureHttp: profile.allowInsecureHttp,
    keyOfProfile: profile.id,
  };
}

export function isNotFound(thrown: unknown): boolean {
  return thrown instanceof AppFailure && thrown.error.kind === 'not_found';
}

export function isUnauthorized(thrown: unknown): boolean {
  return thrown instanceof AppFailure && thrown.error.kind === 'unauthorized';
}

export class Connections {
  /** The CLI's --profile: this session acts on that profile without changing the saved choice. */
  private pinnedProfileId: string | null = null;
  private readonly log: Logger;
  private readonly apiLog: Logger;
  /**
   * The last client built with the usual settings, for the connection it was built for. Its key
   * is one this process already holds (the vault's copy; log.ts keeps every key to redact it).
   */
  private keptClient: (Connection & { client: ReportServiceClient }) | null = null;

  constructor(private readonly options: ConnectionsOptions) {
    this.log = options.logger.child('gateway');
    this.apiLog = options.logger.child('api');
  }

  get demo(): DemoLauncher | undefined {
    return this.options.demo;
  }

  /**
   * A client for `connection`. One with the usual settings is kept and reused while requests go
   * to the same address with the same key (a client holds no state between requests): building
   * one for each request cost 8–13 µs of the 0.13 ms the gateway added to a list request.
   */
  client(connection: Connection, overrides: ClientSettings = {}): ReportServiceClient {
    const usual = overrides.timeoutMs === undefined && overrides.retry === undefined;
    const kept = this.keptClient;
    if (
      usual &&
      kept &&
      kept.baseUrl === connection.baseUrl &&
      kept.apiKey === connection.apiKey &&
      kept.allowInsecureHttp === connection.allowInsecureHttp
    )
      return kept.client;
    const client = new ReportServiceClient({
      baseUrl: connection.baseUrl,
      apiKey: connection.apiKey,
      allowInsecureHttp: connection.allowInsecureHttp,
      fetch: this.options.fetch,
      timeoutMs: overrides.timeoutMs ?? this.options.client?.timeoutMs ?? 8_000,
      retry: { maxAttempts: 2, ...this.options.client?.retry, ...overrides.retry },
      logger: this.apiLog,
    });
    if (usual) this.keptClient = { ...connection, client };
    return client;
  }

  /** Acts on `profileId` for the rest of this session, leaving the saved active profile alone. */
  pin(profileId: string): void {
    this.options.profiles.requireProfile(profileId);
    this.pinnedProfileId = profileId;
  }

  /** The pinned profile when it no longer exists (removed by another process), else null. */
  pinnedProfileGone(): boolean {
    return this.pinnedProfileId !== null && !this.options.profiles.get(this.pinnedProfileId);
  }

  activeProfileId(): string | null {
    return this.pinnedProfileId ?? this.options.profiles.activeId();
  }

  private activeProfile(): StoredProfile {
    const pinned = this.pinnedProfileId;
    const profile =
      pinned === null ? this.options.profiles.activeProfile() : this.options.profiles.get(pinned);
    if (!profile) throw new AppFailure(appError('no_profile'));
    return profile;
  }

  private async keyFor(profile: StoredProfile): Promise<string> {
    // A key stored since (by any process) bumps keySetAt: the copy in memory is then stale.
    const key = await this.options.keys.forRequest(profile.id, profile.keySetAt ?? '');
    if (key === null) {
      throw new AppFailure(
        appError(
          'profile.no_key_stored',
          { profile: profile.name },
          { reason: 'no_key_stored', details: { profileName: profile.name } },
        ),
      );
    }
    return key;
  }

  private async forProfile(profile: StoredProfile): Promise<Connection> {
    const { demo, cache, profiles } = this.options;
    if (profile.demo && demo) {
      const port = Number(cache.getMeta(profile.id, DEMO_PORT)) || undefined;
      const running = await demo.ensureRunning(port);
      if (running.baseUrl !== profile.baseUrl) {
        // The demo service may come back on another port; its data (and our cache) is the same.
        profiles.update(profile.id, { baseUrl: running.baseUrl });
        cache.setMeta(profile.id, DEMO_PORT, new URL(running.baseUrl).port);
      }
      return {
        scope: profile.id,
        baseUrl: running.baseUrl,
        apiKey: running.apiKey,
        allowInsecureHttp: false,
      };
    }
    return keyedConnection(profile, await this.keyFor(profile));
  }

  /** A profile's connection, active or not (the scheduler keeps every kept-offline profile current). */
  async forProfileId(profileId: string): Promise<Connection> {
    return this.forProfile(this.options.profiles.requireProfile(profileId));
  }

  /**
   * The active connection: at once when nothing has to be awaited (the key is held in memory:
   * nearly every request), else once the keychain or the demo service has answered. Throws
   * `no_profile` when no profile is active.
   */
  active(): Connection | Promise<Connection> {
    const fixed = this.options.fixedConnection;
    if (fixed) return { ...fixed, scope: this.fixedScope(fixed) };
    const profile = this.activeProfile();
    const held =
      profile.demo && this.options.demo
        ? undefined
        : this.options.keys.heldFor(profile.id, profile.keySetAt ?? '');
    return held === undefined ? this.forProfile(profile) : keyedConnection(profile, held);
  }

  /** The scope of the active connection without touching the keychain (for cache-only channels). */
  activeScope(): string | null {
    const fixed = this.options.fixedConnection;
    if (fixed) return this.fixedScope(fixed);
    return this.activeProfileId();
  }

  /** A connection without profiles: its scope is salted, so the cache never holds a key's plain hash. */
  private fixedScope(fixed: Omit<Connection, 'scope'>): string {
    const salt = this.options.scopeSalt;
    if (!salt)
      throw new Error('A fixed connection needs the data dir’s scope salt (ConnectionsOptions.scopeSalt).');
    return saltedScope(salt, fixed.baseUrl, fixed.apiKey);
  }

  /**
   * After a 401: the connection with the key the vault holds now, or null when the key did
   * not change (or did not come from the vault) and the 401 stands.
   */
  async withRereadKey(connection: Connection): Promise<Connection | null> {
    if (connection.keyOfProfile === undefined) return null;
    this.options.keys.forgetCopies(connection.keyOfProfile);
    const profile = this.options.profiles.get(connection.keyOfProfile);
    if (!profile) return null;
    const again = await this.forProfile(profile);
    if (again.apiKey === connection.apiKey) return null;
    this.log.info('the key was replaced meanwhile; asking again with the new one');
    return again;
  }

  /**
   * Runs a request; on a 401 with a key from the vault, re-reads the key once (another
   * process may have replaced it) and runs the request again only when the key did change.
   */
  async withCurrentKey<T>(
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
}
