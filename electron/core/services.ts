/**
 * Builds the core from its parts for one data dir: profiles (JSON), keys (OS keychain via
 * keytar, or what the caller injects), the SQLite cache, the event hub, the gateway's services
 * (connection, online/offline policy, profiles, reports, cache views, sync, export, links) and
 * the gateway's handler table over them.
 * Used by the Electron main process, the browser preview, the CLI and the tests.
 */
import { join } from 'node:path';
import type { ContractHandlers } from '../../shared/contract';
import { LAST_FULL_SYNC_META, LAST_QUICK_REFRESH_META, ReportCache } from './cache/reportCache';
import { dropUnsaltedScopes, loadScopeSalt } from './cache/scopeSalt';
import { EventHub } from './events';
import { Accounts } from './gateway/accounts';
import { CacheViews } from './gateway/cacheViews';
import { ChangesService } from './gateway/changesService';
import { Connections, type ClientSettings, type Connection, type DemoLauncher } from './gateway/connection';
import { Connectivity } from './gateway/connectivity';
import { ExportService, type SaveExport } from './gateway/exportService';
import { gatewayHandlers } from './gateway/gateway';
import { LanguageService, type LanguageOptions } from './gateway/languageService';
import { Links } from './gateway/links';
import { OfflineService } from './gateway/offlineService';
import { OnlinePolicy } from './gateway/onlinePolicy';
import { ProfilesService } from './gateway/profilesService';
import { ReportsService } from './gateway/reportsService';
import { SyncService } from './gateway/syncService';
import { KeytarKeyStore, type KeyStore } from './keys/keyStore';
import { KeyVault } from './keys/keyVault';
import { silentLogger, type Logger } from './log';
import { keepPrivate, preparePrivateDir, type DataDirAccess } from './privateFiles';
import { ProfileStore } from './profiles/profileStore';
import type { UpdatesContext } from './updates/appUpdates';
import { unmanagedUpdates, type UpdatesService } from './updates/updatesService';
import { ChangeTracker, coreWorkActivity, trackChanges } from './updates/workActivity';
import { offlineOptionsOf } from './offline/options';
import type { PowerSource } from './offline/power';
import { OfflineScheduler, type SchedulerOptions } from './offline/scheduler';

export interface CoreServicesOptions {
  dataDir: string;
  /** Electron's net.fetch in the app (system proxy, OS certificates); Node's fetch elsewhere. */
  fetch?: typeof globalThis.fetch;
  keyStore?: KeyStore;
  logger?: Logger;
  openExternal?: (url: string) => Promise<void>;
  saveExport?: SaveExport;
  now?: () => Date;
  client?: ClientSettings;
  /** How often to probe the service while offline; 0 turns background probing off. */
  probeIntervalMs?: number;
  /** A fixed connection instead of profiles (the CLI with REPORT_DESK_API_KEY); see Connections. */
  fixedConnection?: Omit<Connection, 'scope'>;
  /** Answer reads from the cache when the service cannot be reached (default true; the CLI's --no-cache turns it off). */
  offlineFallback?: boolean;
  /**
   * Makes the embedded demo's launcher (its data in `dataFile`). The entry points that offer
   * the demo pass it in, so the core imports no front end; without it there is no demo (the CLI).
   */
  demoLauncher?: (dataFile: string, logger: Logger) => DemoLauncher;
  /** How long a full sync's cross-process claim lasts unrenewed (default 20 s; tests shorten it). */
  syncLeaseMs?: number;
  /**
   * Makes the app's updater (electron/main; the e2e tests). Without it — the CLI, the browser
   * preview — the `updates:*` channels answer that the installed app manages updates.
   */
  updates?: (context: UpdatesContext) => UpdatesService;
  /**
   * Keeps the offline copies of "Keep available offline" profiles current in the background
   * (the app and the preview): where the power comes from, and (tests) the scheduler's clock.
   * Without it nothing runs by itself (the CLI).
   */
  keepOffline?: { power: PowerSource } & Pick<SchedulerOptions, 'clock' | 'startDelayMs'>;
  /** The system's languages (the app) and this run's `--lang`, for the language the window shows. */
  language?: LanguageOptions;
}

export interface CoreServices {
  handlers: ContractHandlers;
  events: EventHub;
  logger: Logger;
  /** Which profile requests go to; the CLI's --profile pins one for its session. */
  connections: Connections;
  connectivity: Connectivity;
  cache: ReportCache;
  profiles: ProfileStore;
  /** The data dir's mode; `readableByOthers` makes each front end warn. */
  dataDirAccess: DataDirAccess;
  /** The app's updates (main installs a downloaded one on quit through it). */
  updates: UpdatesService;
  /** Every page of a list query, walked as the export walks them (the CLI's `reports list --all`). */
  listAll: ExportService['collect'];
  /** The app's language setting (the main process words its menu and dialogs by it). */
  language: LanguageService;
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
  const now = options.now ?? (() => new Date());
  const demo = options.demoLauncher?.(paths.demoData, logger.child('demo'));
  const connections = new Connections({
    profiles,
    keys,
    cache,
    fetch: options.fetch ?? globalThis.fetch,
    logger,
    demo,
    client: options.client,
    fixedConnection: options.fixedConnection,
    scopeSalt: options.fixedConnection ? loadScopeSalt(options.dataDir) : undefined,
  });
  const connectivity = new Connectivity(
    events,
    now,
    async (signal) => {
      const connection = await connections.active();
      await connections
        .client(connection, { retry: { maxAttempts: 1 }, timeoutMs: 5_000 })
        .getAccount({ signal });
    },
    options.probeIntervalMs ?? 15_000,
  );
  const policy = new OnlinePolicy(connections, connectivity, options.offlineFallback ?? true);
  const accounts = new Accounts(cache, now, logger);
  const sync = new SyncService({
    connections,
    profiles,
    policy,
    cache,
    events,
    now,
    leaseMs: options.syncLeaseMs,
  });
  const profileService = new ProfilesService({
    profiles,
    keys,
    cache,
    events,
    logger,
    connections,
    connectivity,
    accounts,
    sync,
  });
  const reports = new ReportsService(connections, policy, cache, accounts, now);
  const offline = new OfflineService(profiles, connections, cache, sync, events);
  const exports = new ExportService(
    (query, list) => reports.list(query, list),
    events,
    now,
    options.saveExport,
  );
  const language = new LanguageService(options.dataDir, events, options.language, logger);
  const changes = new ChangeTracker();
  const updates =
    options.updates?.({
      work: coreWorkActivity({ sync, exports, changes }),
      onChange: (status) => events.emit('updates:changed', status),
      logger: logger.child('updates'),
    }) ?? unmanagedUpdates('not_installed');
  const gateway = gatewayHandlers({
    profiles: profileService,
    reports,
    exports,
    cacheViews: new CacheViews(
      connections,
      cache,
      sync,
      now,
      dataDirAccess.readableByOthers ? options.dataDir : undefined,
    ),
    sync,
    connectivity,
    links: new Links(profiles, (id) => profileService.activate(id), options.openExternal),
    updates,
    connections,
    changes: new ChangesService(connections, cache, now),
    offline,
    language,
  });
  // Report writes are counted: a restart into an update waits while a bulk change sends them.
  const handlers = trackChanges(gateway, changes);
  const scheduler = options.keepOffline
    ? new OfflineScheduler({
        ...options.keepOffline,
        profiles: () =>
          profiles.list().map((profile) => ({
            id: profile.id,
            options: offlineOptionsOf(profile),
            lastQuickAt: cache.getMeta(profile.id, LAST_QUICK_REFRESH_META),
            lastFullAt: cache.getMeta(profile.id, LAST_FULL_SYNC_META),
          })),
        run: (profileId, mode) => sync.run({ profileId, mode, background: true }),
        connectivity: {
          get online() {
            return connectivity.online;
          },
          activeProfileId: () => connections.activeProfileId(),
        },
        events,
        onChange: (profileId) => offline.announce(profileId),
      })
    : undefined;
  if (scheduler) {
    offline.attach(scheduler);
    scheduler.start();
  }
  let closed = false;
  return {
    handlers,
    events,
    logger,
    connections,
    connectivity,
    cache,
    profiles,
    dataDirAccess,
    updates,
    listAll: (query, walk) => exports.collect(query, walk),
    language,
    async close() {
      if (closed) return;
      closed = true;
      scheduler?.stop();
      updates.close();
      language.close();
      profileService.close();
      offline.close();
      sync.cancel();
      connectivity.close();
      await demo?.stop();
      profiles.close();
      cache.close();
    },
  };
}
