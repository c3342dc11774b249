/**
 * Builds the core from its parts for one data dir: profiles (JSON), keys (OS keychain via
 * keytar, or what the caller injects), the SQLite cache, the event hub and the gateway.
 * Used by the Electron main process, the browser preview, the CLI and the tests.
 */
import { join } from 'node:path';
import type { ContractHandlers } from '../../shared/contract';
import { ReportCache } from './cache/reportCache';
import { dropUnsaltedScopes, loadScopeSalt } from './cache/scopeSalt';
import { EventHub } from './events';
import { Gateway, type DemoLauncher, type GatewayOptions } from './gateway/gateway';
import { KeytarKeyStore, type KeyStore } from './keys/keyStore';
import { KeyVault } from './keys/keyVault';
import { silentLogger, type Logger } from './log';
import { keepPrivate, preparePrivateDir, type DataDirAccess } from './privateFiles';
import { ProfileStore } from './profiles/profileStore';

export interface CoreServicesOptions {
  dataDir: string;
  /** Electron's net.fetch in the app (system proxy, OS certificates); Node's fetch elsewhere. */
  fetch?: typeof globalThis.fetch;
  keyStore?: KeyStore;
  logger?: Logger;
  openExternal?: (url: string) => Promise<void>;
  saveExport?: GatewayOptions['saveExport'];
  now?: () => Date;
  client?: GatewayOptions['client'];
  probeIntervalMs?: number;
  fixedConnection?: GatewayOptions['fixedConnection'];
  offlineFallback?: boolean;
  /**
   * Makes the embedded demo's launcher (its data in `dataFile`). The entry points that offer
   * the demo pass it in, so the core imports no front end; without it there is no demo (the CLI).
   */
  demoLauncher?: (dataFile: string, logger: Logger) => DemoLauncher;
  syncLeaseMs?: GatewayOptions['syncLeaseMs'];
}

export interface CoreServices {
  handlers: ContractHandlers;
  events: EventHub;
  logger: Logger;
  gateway: Gateway;
  cache: ReportCache;
  profiles: ProfileStore;
  /** The data dir's mode; `readableByOthers` makes each front end warn. */
  dataDirAccess: DataDirAccess;
  close(): Promise<void>;
}

/** The data dir's layout, in one place. */
export function dataPaths(dataDir: string) {
  return {
    profiles: join(dataDir, 'profiles.json'),
    cache: join(dataDir, 'cache.sqlite'),
    demoData: join(dataDir, 'demo-service.json'),
    logs: join(dataDir, 'logs'),
  };
}

export async function createCoreServices(options: CoreServicesOptions): Promise<CoreServices> {
  const dataDirAccess = preparePrivateDir(options.dataDir);
  const paths = dataPaths(options.dataDir);
  // Files an earlier version left 0644 until their next rewrite (new ones are created 0600).
  for (const file of [paths.profiles, paths.demoData]) keepPrivate(file);
  const logger = options.logger ?? silentLogger;
  if (dataDirAccess.readableByOthers) {
    logger.warn('The data folder is readable by other users of this computer; chmod 700 it.', {
      dataDir: options.dataDir,
      mode: dataDirAccess.mode.toString(8),
    });
  }
  const events = new EventHub();
  // Each part names its own log component ('cache', 'profiles', 'keychain').
  const cache = ReportCache.open(paths.cache, { logger });
  const dropped = dropUnsaltedScopes(cache);
  if (dropped > 0)
    logger.info('dropped cache rows under unsalted scopes; they are synced again', { dropped });
  const profiles = new ProfileStore(paths.profiles, { logger });
  // Other processes (CLI runs, a second window) change profiles too: notice it at once.
  profiles.watch();
  const keys = new KeyVault(options.keyStore ?? new KeytarKeyStore({ logger }));
  const gateway = new Gateway({
    profiles,
    keys,
    cache,
    events,
    fetch: options.fetch ?? globalThis.fetch,
    logger,
    now: options.now,
    openExternal: options.openExternal,
    saveExport: options.saveExport,
    demo: options.demoLauncher?.(paths.demoData, logger.child('demo')),
    client: options.client,
    probeIntervalMs: options.probeIntervalMs,
    fixedConnection: options.fixedConnection,
    offlineFallback: options.offlineFallback,
    exposedDataDir: dataDirAccess.readableByOthers ? options.dataDir : undefined,
    scopeSalt: options.fixedConnection ? loadScopeSalt(options.dataDir) : undefined,
    syncLeaseMs: options.syncLeaseMs,
  });
  let closed = false;
  return {
    handlers: gateway.handlers,
    events,
    logger,
    gateway,
    cache,
    profiles,
    dataDirAccess,
    async close() {
      if (closed) return;
      closed = true;
      await gateway.close();
      profiles.close();
      cache.close();
    },
  };
}
