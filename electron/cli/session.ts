/**
 * One CLI run's core: the data dir, the connection and ONE createCoreServices for the whole
 * run (closed by runCli at the end).
 *
 * The connection: with REPORT_DESK_API_KEY set and no --profile, the gateway's fixed
 * connection (base URL from --base-url or REPORT_DESK_BASE_URL; its cache is kept apart per
 * base URL and key, by a hash, without storing the key). Otherwise a profile: --profile NAME,
 * else the active one; an explicit --profile wins over the environment's key.
 */
import { AppFailure, englishOnlyError } from '../../shared/errors';
import { normalizeBaseUrl } from '../core/api/baseUrl';
import { DEFAULT_RETRY_POLICY, DEFAULT_TIMEOUT_MS } from '../core/api/client';
import { errorCode } from '../core/errorCode';
import { KeytarKeyStore } from '../core/keys/keyStore';
import { createLogger, registerSecret, type Logger } from '../core/log';
import type { StoredProfile } from '../core/profiles/profileStore';
import { createCoreServices, type CoreServices, type CoreServicesOptions } from '../core/services';
import { storageFailure } from '../core/storageFailure';
import { UsageError, type OptionValues } from './args';
import type { Connected, ConnectionTarget } from './connection';
import { PROGRAM, text, type CliIo } from './context';
import { resolveDataDir } from './dataDir';
import { proxiedFetch, proxySettings, type ProxiedFetch } from './proxy';
import { repairSentence } from './repairWords';

/**
 * The keychain service name (default "ReportDesk", the desktop app's): tests and stress runs
 * give each run its own, so entries of concurrent runs are never mixed up.
 */
export const KEYCHAIN_SERVICE_ENV = 'REPORT_DESK_KEYCHAIN_SERVICE';

/** Test knob: the first retry delay in ms (the client's default is 300). */
export const RETRY_BASE_ENV = 'REPORT_DESK_RETRY_BASE_MS';
/** Test knob: how long a cache sync's claim lasts unrenewed, in ms (default 20,000). */
export const SYNC_LEASE_ENV = 'REPORT_DESK_SYNC_LEASE_MS';

function isSqliteError(thrown: unknown): boolean {
  const code = (thrown as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}

function timeoutMs(options: OptionValues): number | undefined {
  const raw = text(options, 'timeout');
  if (raw === undefined) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(seconds > 0 && seconds <= 3600)) {
    throw new UsageError('--timeout must be a number of seconds between 0 and 3600, like 15.');
  }
  return seconds * 1000;
}

function retryBaseMs(env: CliIo['env']): number | undefined {
  const raw = env[RETRY_BASE_ENV];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`${RETRY_BASE_ENV} must be a whole number of milliseconds.`);
  return Number(raw);
}

function syncLeaseMs(env: CliIo['env']): number | undefined {
  const raw = env[SYNC_LEASE_ENV];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 100) {
    throw new UsageError(`${SYNC_LEASE_ENV} must be a whole number of milliseconds, 100 or more.`);
  }
  return Number(raw);
}

function clientOptions(options: OptionValues, env: CliIo['env']): CoreServicesOptions['client'] {
  const baseDelayMs = retryBaseMs(env);
  return {
    timeoutMs: timeoutMs(options) ?? DEFAULT_TIMEOUT_MS,
    // The gateway asks only twice (the app's user can click again); a script gets the client's full policy.
    retry: {
      maxAttempts: DEFAULT_RETRY_POLICY.maxAttempts,
      ...(baseDelayMs === undefined ? {} : { baseDelayMs }),
    },
  };
}

/** The profile called NAME (case-insensitive), or a not-found error saying how to list them. */
export function findProfile(services: CoreServices, name: string): StoredProfile {
  const profile = services.profiles.findByName(name);
  if (!profile) {
    throw new AppFailure(
      englishOnlyError(
        'not_found',
        `There is no profile named "${name}". Run "${PROGRAM} profiles list" to see the profiles.`,
      ),
    );
  }
  return profile;
}

export class CliSession {
  private services: Promise<CoreServices> | null = null;
  private connected: Promise<Connected> | null = null;
  /** The profile this run acts on, once connect() has chosen one. */
  private profile: StoredProfile | undefined;
  /** The proxies' connections, when the environment names a proxy. */
  private proxy: ProxiedFetch | undefined;

  constructor(
    private readonly io: CliIo,
    private readonly options: OptionValues,
  ) {}

  open(): Promise<CoreServices> {
    return this.start(undefined);
  }

  connect(): Promise<Connected> {
    this.connected ??= this.makeConnection();
    return this.connected;
  }

  /** The profile this run acts on, once chosen (for the CLI's wording of errors). */
  get profileName(): string | undefined {
    return this.profile?.name;
  }

  async close(): Promise<void> {
    const services = await this.services?.catch(() => null);
    await services?.close();
    await this.proxy?.close();
  }

  /** The fetch a test injected, or Node's through the proxies HTTPS_PROXY / HTTP_PROXY / NO_PROXY name. */
  private networkFetch(logger: Logger | undefined): typeof globalThis.fetch {
    if (this.io.fetch) return this.io.fetch;
    const settings = proxySettings(this.io.env);
    if (!settings) return globalThis.fetch;
    for (const proxy of [settings.https, settings.http]) {
      if (proxy) logger?.debug(`proxy ${proxy.host} from ${proxy.variable}`, { no_proxy: settings.noProxy });
    }
    this.proxy = proxiedFetch(settings);
    return this.proxy.fetch;
  }

  /** Every command opens the core once, with or without a fixed connection. */
  private start(fixedConnection: CoreServicesOptions['fixedConnection']): Promise<CoreServices> {
    this.services ??= this.create(fixedConnection);
    return this.services;
  }

  private async create(fixedConnection: CoreServicesOptions['fixedConnection']): Promise<CoreServices> {
    const { io, options } = this;
    const dataDir = resolveDataDir(text(options, 'data-dir'), io.env);
    const client = clientOptions(options, io.env);
    const leaseMs = syncLeaseMs(io.env);
    const logger =
      options.verbose === true
        ? createLogger(PROGRAM, (line) => io.stderr.write(line + '\n'), 'debug')
        : undefined;
    const fetch = this.networkFetch(logger);
    try {
      // The cache waits for another ReportDesk process that holds its write lock (busy_timeout).
      const services = await createCoreServices({
        dataDir,
        fetch,
        keyStore:
          io.keyStore ??
          (io.env[KEYCHAIN_SERVICE_ENV]
            ? new KeytarKeyStore({ service: io.env[KEYCHAIN_SERVICE_ENV] })
            : undefined),
        logger,
        now: io.now,
        client,
        probeIntervalMs: 0,
        fixedConnection,
        offlineFallback: options['no-cache'] !== true,
        syncLeaseMs: leaseMs,
        // Named crash points for the reliability tests (REPORT_DESK_CRASH_AT; core/crashPoints.ts).
        crashPointsFrom: io.env,
      });
      // What the core repaired while opening (or later in this run) is said once, on stderr.
      for (const notice of services.repairs.madeHere) io.stderr.write(repairSentence(notice) + '\n');
      services.repairs.onNote((notice) => io.stderr.write(repairSentence(notice) + '\n'));
      const { readableByOthers, mode } = services.dataDirAccess;
      if (readableByOthers) {
        io.stderr.write(
          `Warning: other users of this computer can read the data folder ${dataDir} (mode ${mode.toString(8)}), which holds your cached reports. Make it private with: chmod 700 "${dataDir}"\n`,
        );
      }
      return services;
    } catch (thrown) {
      if (thrown instanceof AppFailure) throw thrown;
      const disk = storageFailure(thrown, { folder: dataDir, place: 'data_folder' });
      if (disk) throw disk;
      const code = errorCode(thrown);
      throw new AppFailure(
        englishOnlyError(
          'internal',
          isSqliteError(thrown)
            ? `The offline cache in ${dataDir} could not be opened (${code}); another ReportDesk may be using it right now. Try again in a moment, or choose another folder with --data-dir.`
            : `The data folder ${dataDir} could not be used (${code}). Check that it is writable, or choose another with --data-dir.`,
        ),
      );
    }
  }

  private async makeConnection(): Promise<Connected> {
    const { io, options } = this;
    const profileName = text(options, 'profile');
    const envKey = io.env.REPORT_DESK_API_KEY;
    if (profileName === undefined && envKey?.trim()) {
      const baseUrl = text(options, 'base-url') ?? io.env.REPORT_DESK_BASE_URL;
      if (!baseUrl?.trim()) {
        throw new UsageError(
          'Give the Report Service address with --base-url URL or the environment variable REPORT_DESK_BASE_URL.',
        );
      }
      registerSecret(envKey);
      const allowInsecureHttp = options['allow-insecure-http'] === true;
      // Normalised first, so "…/api/v1/" and "…" share one cache.
      const normalized = normalizeBaseUrl(baseUrl, allowInsecureHttp);
      const services = await this.start({ baseUrl: normalized, apiKey: envKey, allowInsecureHttp });
      return bind(services, { kind: 'environment', baseUrl: normalized });
    }

    const services = await this.start(undefined);
    const profile = profileName === undefined ? activeProfile(services) : findProfile(services, profileName);
    for (const name of ['base-url', 'allow-insecure-http']) {
      if (options[name] !== undefined) {
        throw new UsageError(
          `--${name} is only used with the key in REPORT_DESK_API_KEY (and by profiles add); the profile "${profile.name}" has its own base URL. Leave out --${name}, or set REPORT_DESK_API_KEY without --profile.`,
        );
      }
    }
    // --profile is for this run only: the app's saved choice stays as it is.
    if (profileName !== undefined) services.connections.pin(profile.id);
    // The key is read by the gateway with the first request (a locked keychain is its
    // keychain_unavailable); cache status and clear never need it.
    this.profile = profile;
    return bind(services, { kind: 'profile', profile });
  }
}

function activeProfile(services: CoreServices): StoredProfile {
  const id = services.profiles.activeId();
  const profile = id === null ? undefined : services.profiles.get(id);
  if (!profile) {
    throw new UsageError(
      `No profile is set up and REPORT_DESK_API_KEY is not set. Set the API key in the environment variable REPORT_DESK_API_KEY (it is never taken as an argument) together with --base-url URL, or add a profile: printf %s "$KEY" | ${PROGRAM} profiles add NAME --base-url URL.`,
    );
  }
  return profile;
}

function bind(services: CoreServices, target: ConnectionTarget): Connected {
  return { handlers: services.handlers, events: services.events, target, listAll: services.listAll };
}
