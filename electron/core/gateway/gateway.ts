/**
 * The gateway: every channel of the IPC contract, for the Electron main process, the browser
 * preview and the CLI alike, as a table over the services built in ../services.ts. Each
 * service does one job; this file only routes.
 */
import type { ContractHandlers } from '../../../shared/contract';
import type { CacheViews } from './cacheViews';
import type { Connections } from './connection';
import type { ChangesService } from './changesService';
import type { Connectivity } from './connectivity';
import type { ExportService } from './exportService';
import { firstScreen } from './firstScreen';
import type { HistoryService } from './historyService';
import type { LanguageService } from './languageService';
import type { Links } from './links';
import type { OfflineService } from './offlineService';
import type { ProfilesService } from './profilesService';
import type { RepairsService } from './repairsService';
import type { ReportsService } from './reportsService';
import type { SyncService } from './syncService';
import type { UpdatesService } from '../updates/updatesService';

export interface GatewayServices {
  profiles: ProfilesService;
  reports: ReportsService;
  exports: ExportService;
  cacheViews: CacheViews;
  sync: SyncService;
  connectivity: Connectivity;
  links: Links;
  updates: UpdatesService;
  connections: Connections;
  changes: ChangesService;
  offline: OfflineService;
  repairs: RepairsService;
  history: HistoryService;
  language: LanguageService;
}

export function gatewayHandlers(services: GatewayServices): ContractHandlers {
  const {
    profiles,
    reports,
    exports,
    cacheViews,
    sync,
    connectivity,
    links,
    updates,
    connections,
    changes,
    offline,
    repairs,
    history,
    language,
  } = services;
  return {
    'profiles:list': () => profiles.state(),
    'profiles:add': (input) => profiles.add(input),
    'profiles:update': (input) => profiles.update(input),
    'profiles:remove': ({ id }) => profiles.remove(id),
    'profiles:activate': ({ id }) => profiles.activate(id),
    'profiles:setKey': (input) => profiles.setKey(input),
    'profiles:testConnection': async (input) =>
      (await profiles.testConnection(input.baseUrl, input.allowInsecureHttp, input.apiKey)).account,
    'profiles:startDemo': () => profiles.startDemo(),

    'reports:list': (query) => reports.list(query),
    'reports:get': ({ id }) => reports.get(id),
    'reports:create': (fields) => reports.create(fields),
    'reports:update': (input) => reports.update(input),
    'reports:delete': ({ id }) => reports.delete(id),

    'reports:export': (input) => exports.run(input),
    'reports:cancelExport': async () => exports.cancel(),
    'export:save': (input) => exports.save(input),

    'account:get': () => reports.account(),

    'cache:status': async () => cacheViews.status(),
    'cache:sync': (input) => offline.syncNow(input),
    'cache:cancelSync': async () => ({ cancelled: sync.cancel() }),
    'cache:clear': async () => cacheViews.clear(),
    'cache:projects': async () => cacheViews.projects(),
    'cache:overview': async (input) => cacheViews.overview(input),
    'changes:list': async (input) => changes.list(input),
    'changes:summary': async () => changes.summary(),
    'changes:marks': async (input) => changes.marks(input),
    'changes:markSeen': async (input) => changes.markSeen(input),
    'offline:get': async ({ profileId }) => offline.state(profileId),
    'offline:set': async (input) => offline.set(input),
    'history:periods': async (input) => history.periods(input),
    'history:timeline': async (input) => history.timeline(input),
    'history:compare': async (input) => history.compare(input),
    'history:urls': async (input) => history.urls(input),
    'history:export': async (input) => history.export(input),

    'connectivity:status': async () => connectivity.current,
    'connectivity:check': () => connectivity.check(),

    'shell:openExternal': ({ url }) => links.openExternal(url),
    'links:open': ({ url }) => links.open(url),

    'updates:status': async () => updates.status(),
    'updates:check': () => updates.check(),
    'updates:setPreferences': async (changes) => updates.setPreferences(changes),
    'updates:restart': async (options) => updates.restart(options),
    'updates:cancelRestart': async () => updates.cancelRestart(),
    'repairs:status': () => repairs.status(),
    'repairs:dismiss': (input) => repairs.dismiss(input),
    'repairs:restoreKeys': (input) => repairs.restoreKeys(input),
    'repairs:removeKeys': (input) => repairs.removeKeys(input),
    'profiles:startAfresh': () => repairs.startAfresh(),

    'app:firstScreen': (input) =>
      firstScreen(input, { profiles, reports, connectivity, connections, language }),
    'settings:language': async () => language.state(),
    'settings:setLanguage': async ({ choice }) => language.choose(choice),
  };
}
