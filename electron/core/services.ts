/**
 * Builds the core from its parts for one data dir: profiles (JSON), keys (OS keychain via
 * keytar, or what the caller injects), the SQLite cache, the event hub, the gateway's services
 * (connection, online/offline policy, profiles, reports, cache views, sync, export, links) and
 * the gateway's handler table over them.
 * Used by the Electron main process, the browser preview, the CLI and the tests.
 */
import { join } from 'node:path';
import type { ContractHandlers } from '../../shared/contract';
import { sweepStaleTemps } from './atomicWrite';
import { LAST_FULL_SYNC_META, LAST_QUICK_REFRESH_META, ReportCache } from './cache/reportCache';
import { armCrashPoints } from './crashPoints';
import { dropUnsaltedScopes, loadScopeSalt } from './cache/scopeSalt';
import { EventHub } from './events';
import { Accounts } from './gateway/accounts';
import { CacheViews } from './gateway/cacheViews';
import { ChangesService } from './gateway/changesService';
import { Connections, type ClientSettings, type Connection, type DemoLauncher } from './gateway/connection';
import { Connectivity } from './gateway/connectivity';
import { ExportService, type SaveExport } from './gateway/exportService';
import { gatewayHandlers } from './gateway/gateway';
import { HistoryService } from './gateway/historyService';
import { LanguageService, type LanguageOptions } from './gateway/languageService';
import { Links } from './gateway/links';
import { OfflineService } from './gateway/offlineService';
import { OnlinePolicy } from './gateway/onlinePolicy';
import { ProfilesService } from './gateway/profilesService';
import { ReportsService } from './gateway/reportsService';
import { SyncService } from './gateway/syncService';
import { KeytarKeyStore, type KeyStore } from './keys/keyStore';
import { KeyVault } from './keys/keyVault';
import { OrphanedKeys } from './keys/orphanedKeys';
import { LOCAL_FILE, LocalStore } from './local/localStore';
import { RepairNotes } from './local/repairNotes';
import { silentLogger, type Logger } from './log';
import { keepPrivate, preparePrivateDir, type DataDirAccess } from './privateFiles';
import { ProfileStore } from './profiles/profileStore';
import type { UpdatesContext } from './updates/appUpdates';
import { unmanagedUpdates, type UpdatesService } from './updates/updatesService';
import { ChangeTracker, coreWorkActivity, trackChanges } from './updates/workActivity';
import { offlineOptionsOf } from './offline/options';
import type { PowerSource } from './offline/power';
import { OfflineScheduler, type SchedulerOptions } from './offline/scheduler';
import { RepairsService } from './gateway/repairsService';
import { startRun } from './runMarkers';
import { withStorageErrors } from './storageErrors';

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
  /**
   * Where REPORT_DESK_CRASH_AT is read from (core/crashPoints.ts): the CLI, the preview and the
   * tests pass their environment; the app only when it is not packaged. Absent: no crash point.
   */
  crashPointsFrom?: Readonly<Record<string, string | undefined>>;
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
  /** Repairs this core made (the CLI says each once) and will make. */
  repairs: RepairNotes;
  /** The app's language setting (the main process words its menu and dialogs by it). */
  language: LanguageService;
  close(): Promise<void>;
}

/** The data dir's layout, in one place. */
export function dataPaths(dataDir: string) {
  return {
    profiles: join(dataDir, 'profiles.json'),
    cache: join(dataDir, 'cache.sqlite'),
    local: join(dataDir, LOCAL_FILE),
    demoData: join(dataDir, 'demo-service.json'),
    logs: join(dataDir, 'logs'),
  };
}

export async function createCoreServices(options: CoreServicesOptions): Promise<CoreServices> {
  armCrashPoints(options.crashPointsFrom ?? {});
  const dataDirAccess = preparePrivateDir(options.dataDir);
  const paths = dataPaths(options.dataDir);
  const logger = options.logger ?? silentLogger;
  // Files an earlier version left 0644 until their next rewrite (new ones are created 0600).
  for (const file of [paths.profiles, paths.demoData]) {
    try {
      keepPrivate(file);
    } catch (error) {
      logger.warn('A data file could not be made private (a read-only folder?).', {
        file,
        code: String(error),
      });
    }
  }
  if (dataDirAccess.readableByOthers) {
    logger.warn('The data folder is readable by other users of this computer; chmod 700 it.', {
      dataDir: options.dataDir,
      mode: dataDirAccess.mode.toString(8),
    });
  }
  const events = new EventHub();
  // A run before this one that was killed left its marker: its files are checked before use.
  const run = startRun(options.dataDir);
  const swept = sweepStaleTemps(options.dataDir, { ownerless: true });
  if (swept > 0) logger.info('removed temporary files that killed processes left', { swept });
  // Each part names its own log component ('cache', 'profiles', 'keychain', 'local').
  const local = LocalStore.open(paths.local, { check: run.uncleanEnd, logger });
  const repairs = new RepairNotes(local, logger);
  const profiles = new ProfileStore(paths.profiles, {
    logger,
    onRestored: (restored) => repairs.note({ kind: 'profiles_restored', details: restored }),
  });
  // Made once the services it runs exist; a set-aside copy asks it to refill (see below).
  let scheduler: OfflineScheduler | undefined = undefined;
  const cache = ReportCache.open(paths.cache, {
    logger,
    local,
    check: run.uncleanEnd,
    onSetAside: (event) => {
      repairs.note({
        kind: 'cache_set_aside',
        details: {
          asideAs: event.asideAs,
          reportsLost: event.lost,
          during: event.during,
          kept: ['profiles', 'settings', 'changes'],
          refillProfileIds: keptOffline(profiles),
        },
      });
      // Its profiles kept available offline are refilled by the scheduler's next look.
      scheduler?.replan();
    },
  });
  if (!cache.readOnly) {
    const dropped = dropUnsaltedScopes(cache);
    if (dropped > 0)
      logger.info('dropped cache rows under unsalted scopes; they are synced again', { dropped });
  }
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
  const orphans = new OrphanedKeys({
    keys,
    profiles,
    profilesFile: paths.profiles,
    clearScope: (id) => cache.clearScope(id),
    logger,
  });
  const repairsService = new RepairsService({
    notes: repairs,
    profiles,
    orphans,
    events,
    announceProfiles: () => profileService.announce(),
    logger,
  });
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
    repairs: repairsService,
    history: new HistoryService(connections, cache, now, exports),
    language,
  });
  // Report writes are counted: a restart into an update waits while a bulk change sends them.
  // A full disk or a read-only folder is told as such on every channel (storageErrors.ts).
  const handlers = trackChanges(
    withStorageErrors(gateway, {
      folder: options.dataDir,
      offlineReports: () => {
        const scope = connections.activeScope();
        return scope === null ? undefined : cache.status(scope).reportCount;
      },
      logger,
    }),
    changes,
  );
  scheduler = options.keepOffline
    ? new OfflineScheduler({
        ...options.keepOffline,
        profiles: () =>
          listedOrNone(profiles).map((profile) => ({
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
    repairs,
    language,
    async close() {
      if (closed) return;
      closed = true;
      scheduler?.stop();
      updates.close();
      language.close();
      profileService.close();
      repairsService.close();
      offline.close();
      sync.cancel();
      connectivity.close();
      await demo?.stop();
      profiles.close();
      cache.close();
      local.close();
      // A clean end: the next run need not check the files.
      run.end();
    },
  };
}

/** The profiles, or none while the profiles file cannot be used (the scheduler then has nothing to do). */
function listedOrNone(profiles: ProfileStore): ReturnType<ProfileStore['list']> {
  try {
    return profiles.list();
  } catch {
    return [];
  }
}

/** The profiles kept available offline: whose copy a full sync refills. */
function keptOffline(profiles: ProfileStore): string[] {
  return listedOrNone(profiles)
    .filter((profile) => offlineOptionsOf(profile).keepOffline)
    .map((profile) => profile.id);
}
