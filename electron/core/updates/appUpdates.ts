/**
 * The installed app's updater, put together: whether this install updates itself at all (a
 * development run never checks; a pacman package or an unpacked folder is updated by other
 * means), the feed electron-builder wrote into `resources/app-update.yml` at build time
 * (`publish.url`, overridable then), the settings and staging id in the data dir, and the
 * controller. electron/main passes what only Electron has: the app adapter and the transport
 * over Electron's net.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { load as loadYaml } from 'js-yaml';
import type { UpdateStatus } from '../../../shared/contract';
import type { Logger } from '../log';
import type { Timers } from '../timers';
import type { FeedTransport } from './feedHttp';
import { checkFeedUrl } from './feedUrl';
import { RELEASE_PUBLIC_KEYS } from './releaseKeys';
import { publicKeyFromPem } from './signatures';
import { UpdateController } from './updateController';
import { UpdateSettingsStore } from './updateSettings';
import { unmanagedUpdates, type UpdatesService, type WorkActivity } from './updatesService';
import {
  createUpdater,
  installsOnQuitNatively,
  installStyleOf,
  updaterKindFor,
  useSignedFeed,
  type InstallFacts,
  type UpdaterKind,
} from './updaters';

/** What the core hands the updates factory (CoreServicesOptions.updates). */
export interface UpdatesContext {
  work: WorkActivity;
  onChange: (status: UpdateStatus) => void;
  logger: Logger;
}

export interface AppUpdatesOptions extends UpdatesContext {
  dataDir: string;
  adapter: AppAdapter;
  platform: NodeJS.Platform;
  /** The packaged app's resources folder: app-update.yml and package-type are read from it. */
  resourcesPath: string;
  /** $APPIMAGE, which the AppImage runtime sets to the AppImage's own path. */
  appImage: string | undefined;
  /** Electron's net in the app (electronTransport.ts); Node's http(s) without it. */
  transport?: FeedTransport;
  /** The release keys to trust (SPKI PEM); the embedded ones unless a test says otherwise. */
  publicKeys?: readonly string[];
  /** electron-updater's updater for `kind` (a test passes a DownloadOnlyUpdater). */
  createUpdater?: (kind: UpdaterKind, adapter: AppAdapter) => AppUpdater;
  timers?: Timers;
  now?: () => Date;
}

export function createAppUpdates(options: AppUpdatesOptions): UpdatesService {
  const { adapter, logger } = options;
  const version = adapter.version;
  if (!adapter.isPackaged) return unmanagedUpdates('development', version);
  const facts: InstallFacts = {
    platform: options.platform,
    packageType: readPackageType(options.resourcesPath),
    appImage: options.appImage,
  };
  const kind = updaterKindFor(facts);
  if (kind === null) {
    logger.info('This install does not update itself', {
      platform: facts.platform,
      package: facts.packageType,
    });
    return unmanagedUpdates('unsupported_package', version);
  }
  const feedUrl = readFeedUrl(join(options.resourcesPath, 'app-update.yml'), logger);
  if (feedUrl === null) return unmanagedUpdates('no_feed', version);
  const settings = new UpdateSettingsStore(options.dataDir, { logger });
  settings.ensureStagingId();
  const updater = useSignedFeed((options.createUpdater ?? createUpdater)(kind, adapter), {
    feedUrl,
    channel: settings.read().channel,
    publicKeys: (options.publicKeys ?? RELEASE_PUBLIC_KEYS).map(publicKeyFromPem),
    transport: options.transport,
    logger: logger.child('updater'),
  });
  const controller = new UpdateController({
    updater,
    settings,
    currentVersion: version,
    install: installStyleOf(kind),
    nativeInstallOnQuit: installsOnQuitNatively(kind),
    work: options.work,
    onChange: options.onChange,
    logger,
    timers: options.timers,
    now: options.now,
  });
  controller.start();
  return controller;
}

/** electron-builder's `resources/package-type` (deb, rpm, pacman), as electron-updater reads it; null without. */
export function readPackageType(resourcesPath: string): string | null {
  try {
    return readFileSync(join(resourcesPath, 'package-type'), 'utf8').trim();
  } catch {
    return null;
  }
}

/** The feed's address from app-update.yml (`provider: generic`), or null without a usable one. */
export function readFeedUrl(configFile: string, logger: Logger): string | null {
  let config: unknown;
  try {
    config = loadYaml(String(readFileSync(configFile)));
  } catch (error) {
    logger.warn('No update feed is configured for this build', {
      file: configFile,
      error: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
  const { provider, url } = (config ?? {}) as { provider?: unknown; url?: unknown };
  const checked = provider === 'generic' ? checkFeedUrl(String(url)) : null;
  if (!checked?.ok) {
    logger.warn('The update feed of this build is not a generic https feed; updates are off', {
      file: configFile,
    });
    return null;
  }
  return checked.url.href;
}
