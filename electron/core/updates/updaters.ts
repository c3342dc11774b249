/**
 * electron-updater's updaters, made and set up without Electron: each takes an app adapter in
 * place of Electron's `app` (electron-updater's AppAdapter) and our FeedHttpExecutor in place of
 * its ElectronHttpExecutor, and reads the feed through SignedFeedProvider. Nothing here requires
 * `electron`; of electron-updater's own code only MacUpdater's constructor and BaseUpdater's
 * quitAndInstall do, and those run in the app alone (DownloadOnlyUpdater replaces the latter).
 */
import type { KeyObject } from 'node:crypto';
import {
  AppImageUpdater,
  BaseUpdater,
  DebUpdater,
  MacUpdater,
  NsisUpdater,
  RpmUpdater,
  type AppUpdater,
} from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import type { DownloadExecutorResult, DownloadUpdateOptions } from 'electron-updater/out/AppUpdater.js';
import type { InstallOptions } from 'electron-updater/out/BaseUpdater.js';
import { findFile } from 'electron-updater/out/providers/Provider.js';
import type { Logger } from '../log';
import { FeedHttpExecutor, type FeedTransport } from './feedHttp';
import { SignedFeedProvider, type SignedFeedOptions } from './signedFeedProvider';
import { UpdateFailure } from './updateFailure';

/** The installed package: which of electron-updater's updaters applies. */
export type UpdaterKind = 'appimage' | 'deb' | 'rpm' | 'nsis' | 'mac';

export interface InstallFacts {
  platform: NodeJS.Platform;
  /** `resources/package-type` as electron-builder writes it for deb, rpm and pacman; null without. */
  packageType: string | null;
  /** $APPIMAGE: set by the AppImage runtime to the AppImage's own path. */
  appImage: string | undefined;
}

/**
 * The updater electron-updater's `autoUpdater` would pick (its main.js), or null for an install
 * that cannot update itself (a pacman package, a snap, an unpacked folder): the distribution's
 * own tools update those.
 */
export function updaterKindFor(facts: InstallFacts): UpdaterKind | null {
  if (facts.platform === 'win32') return 'nsis';
  if (facts.platform === 'darwin') return 'mac';
  if (facts.platform !== 'linux') return null;
  if (facts.packageType === 'deb' || facts.packageType === 'rpm') return facts.packageType;
  if (facts.packageType !== null) return null;
  return facts.appImage ? 'appimage' : null;
}

/**
 * How a downloaded update is installed: when the app quits (silently), or only when the user
 * asks and agrees, because the package manager asks for the administrator's password (deb, rpm).
 */
export function installStyleOf(kind: UpdaterKind): 'on-quit' | 'asks-admin' {
  return kind === 'deb' || kind === 'rpm' ? 'asks-admin' : 'on-quit';
}

/** macOS: Squirrel.Mac installs a downloaded update when the app quits, by itself. */
export function installsOnQuitNatively(kind: UpdaterKind): boolean {
  return kind === 'mac';
}

export function createUpdater(kind: UpdaterKind, app: AppAdapter): AppUpdater {
  switch (kind) {
    case 'appimage':
      return new AppImageUpdater(null, app);
    case 'deb':
      return new DebUpdater(null, app);
    case 'rpm':
      return new RpmUpdater(null, app);
    case 'nsis':
      return new NsisUpdater(null, app);
    case 'mac':
      return new MacUpdater(undefined, app);
  }
}

export interface FeedSetup {
  feedUrl: string;
  channel: string;
  publicKeys: readonly KeyObject[];
  transport?: FeedTransport;
  logger: Logger;
}

/** Points `updater` at a signed feed; downloads only when asked (the controller asks). */
export function useSignedFeed<U extends AppUpdater>(updater: U, setup: FeedSetup): U {
  // Set before setFeedURL: the provider takes the executor it finds then. Not in the typings.
  (updater as unknown as { httpExecutor: FeedHttpExecutor }).httpExecutor = new FeedHttpExecutor(
    setup.transport,
  );
  updater.logger = updaterLogger(setup.logger);
  updater.autoDownload = false;
  // NSIS web installers carry no checksum a manifest could sign: never use one.
  updater.disableWebInstaller = true;
  const options: SignedFeedOptions = {
    provider: 'custom',
    updateProvider: SignedFeedProvider,
    url: setup.feedUrl,
    publicKeys: setup.publicKeys,
  };
  updater.setFeedURL(options);
  useChannel(updater, setup.channel);
  return updater;
}

/**
 * The channel's manifest is read from now on. electron-updater's setter also allows a
 * downgrade (back from beta to an older stable); we never offer an older version.
 */
export function useChannel(updater: AppUpdater, channel: string): void {
  updater.channel = channel;
  updater.allowDowngrade = false;
}

/** electron-updater's logger interface over ours. */
function updaterLogger(logger: Logger) {
  const text = (message: unknown) => String(message);
  return {
    info: (message?: unknown) => logger.info(text(message)),
    warn: (message?: unknown) => logger.warn(text(message)),
    error: (message?: unknown) => logger.error(text(message)),
    debug: (message: string) => logger.debug(message),
  };
}

/** The file the app on `platform` installs: what AppImageUpdater, NsisUpdater and MacUpdater pick. */
export function installerFileFor(platform: NodeJS.Platform): { extension: string; not?: string[] } {
  if (platform === 'win32') return { extension: 'exe' };
  if (platform === 'darwin') return { extension: 'zip' };
  return { extension: 'AppImage', not: ['rpm', 'deb', 'pacman'] };
}

/**
 * electron-updater's BaseUpdater with its real check, download and sha512 verification, that
 * downloads the file this platform's app would install and hands it to `onInstall` instead of
 * installing it: the update-check command, and the browser preview's end-to-end tests.
 */
export class DownloadOnlyUpdater extends BaseUpdater {
  constructor(
    app: AppAdapter,
    /** Takes the downloaded, verified file and how to install it; answers whether it was installed. */
    private readonly onInstall: (
      file: string,
      how: { isSilent: boolean; isForceRunAfter: boolean },
    ) => boolean,
    private readonly file = installerFileFor(process.platform),
  ) {
    super(null, app);
  }

  protected doDownloadUpdate(options: DownloadUpdateOptions): Promise<DownloadExecutorResult> {
    const { provider, info } = options.updateInfoAndProvider;
    const fileInfo = findFile(provider.resolveFiles(info), this.file.extension, this.file.not);
    if (!fileInfo) throw new UpdateFailure('feed_not_manifest');
    const executor = (this as unknown as { httpExecutor: FeedHttpExecutor }).httpExecutor;
    return this.executeDownload({
      fileExtension: this.file.extension,
      fileInfo,
      downloadUpdateOptions: options,
      task: (destination, downloadOptions) => executor.download(fileInfo.url, destination, downloadOptions),
    });
  }

  /** As the real updaters do, a failed install is an error (BaseUpdater emits it as 'error'). */
  protected doInstall({ isSilent, isForceRunAfter }: InstallOptions): boolean {
    // BaseUpdater.install calls this only once it has the downloaded file's path.
    if (!this.onInstall(this.installerPath as string, { isSilent, isForceRunAfter })) {
      throw new Error('The update was not installed.');
    }
    return true;
  }

  /** BaseUpdater's, without the `require('electron')` it makes to tell Squirrel.Mac. */
  override quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    if (this.install(isSilent, isForceRunAfter)) this.app.quit();
    else this.quitAndInstallCalled = false;
  }
}
