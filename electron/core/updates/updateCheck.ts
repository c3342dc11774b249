/**
 * One update check without Electron, for the `update-check` command: the app's own updater
 * code (electron-updater's check, SignedFeedProvider's signature check, its sha512-checked
 * download) against a feed, as an install of `currentVersion` on this platform would see it.
 * It works in a folder of its own (in DIR, or the system's temp folder) that it always
 * removes: after a refused signature or checksum nothing is left in DIR, and after a verified
 * download only the file itself.
 */
import type { KeyObject } from 'node:crypto';
import { mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { crashPoint } from '../crashPoints';
import { isOwnerToken, ownerIsGone, ownerToken } from '../processOwner';
import { basename, join } from 'node:path';
import type { UpdateInfo } from 'builder-util-runtime';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import type { UpdateFailureReason } from '../../../shared/contract';
import { silentLogger, type Logger } from '../log';
import type { FeedTransport } from './feedHttp';
import { checkFeedUrl } from './feedUrl';
import { updateFailureReason } from './updateFailure';
import { DownloadOnlyUpdater, useSignedFeed } from './updaters';

export interface UpdateCheckOptions {
  feed: string;
  currentVersion: string;
  channel: string;
  publicKeys: readonly KeyObject[];
  /** Download the update into this folder (which must exist); null: only check. */
  downloadDir: string | null;
  transport?: FeedTransport;
  logger?: Logger;
}

/**
 * Why there is nothing (more) to report: none when a newer version was found (and downloaded);
 * `up_to_date`; `staged_rollout` (newer, but this check is outside its stagingPercentage share);
 * `unsupported_system` (newer, but for a newer operating system: minimumSystemVersion); a
 * failure; or a problem with the options (`not_a_url`, `invalid_version`).
 */
export type UpdateCheckReason =
  | 'up_to_date'
  | 'staged_rollout'
  | 'unsupported_system'
  | 'not_a_url'
  | 'invalid_version'
  | UpdateFailureReason;

/**
 * What the command prints as JSON, and how it ends: `checked` (0); `usage` (2: the options, or
 * a feed address refused before any request); `feed` (6: it cannot be read, a redirect or a
 * file address is refused, the download fails); `refused` (8: a signature or checksum).
 */
export interface UpdateCheckReport {
  available: boolean;
  version: string | null;
  downloaded: boolean;
  /** The manifest's signature, and the download's sha512 when there is one, were checked and held. */
  verified: boolean;
  reason: UpdateCheckReason | null;
  /** The downloaded file, when there is one. */
  file: string | null;
  outcome: 'checked' | 'usage' | 'feed' | 'refused';
}

const REFUSED: ReadonlySet<UpdateCheckReason> = new Set([
  'signature_missing',
  'signature_invalid',
  'checksum_mismatch',
]);

function failed(reason: UpdateCheckReason, version: string | null = null): UpdateCheckReport {
  return {
    available: false,
    version,
    downloaded: false,
    verified: false,
    reason,
    file: null,
    outcome: REFUSED.has(reason) ? 'refused' : 'feed',
  };
}

/** Options refused before any request is made. */
function badUsage(reason: UpdateCheckReason): UpdateCheckReport {
  return { ...failed(reason), outcome: 'usage' };
}

export async function runUpdateCheck(options: UpdateCheckOptions): Promise<UpdateCheckReport> {
  const feed = checkFeedUrl(options.feed);
  // Refused before any request is made.
  if (!feed.ok) return badUsage(feed.problem === 'not_a_url' ? 'not_a_url' : 'insecure_feed');
  const logger = options.logger ?? silentLogger;
  const parent = options.downloadDir ?? tmpdir();
  // A check killed mid-download left its folder: removed now (its process is gone).
  await sweepWorkDirs(parent);
  const workDir = await mkdtemp(join(parent, `${WORK_DIR_PREFIX}${ownerToken()}-`));
  try {
    // electron-updater reads the cache folder's name from the app's app-update.yml.
    const configFile = join(workDir, 'app-update.yml');
    await writeFile(configFile, 'updaterCacheDirName: update-check\n');
    let updater: DownloadOnlyUpdater;
    try {
      // A check installs nothing: the file is handed to the caller in DIR.
      updater = new DownloadOnlyUpdater(
        checkAdapter(options.currentVersion, workDir, configFile),
        () => false,
      );
    } catch {
      return badUsage('invalid_version');
    }
    useSignedFeed(updater, {
      feedUrl: feed.url.href,
      channel: options.channel,
      publicKeys: options.publicKeys,
      transport: options.transport,
      logger,
    });
    let info: UpdateInfo;
    let available: boolean;
    try {
      const result = await updater.checkForUpdates();
      // Never null: the adapter says the app is installed.
      info = result!.updateInfo;
      available = result!.isUpdateAvailable;
    } catch (thrown) {
      return failed(updateFailureReason(thrown, 'feed_unreachable'));
    }
    if (!available) {
      const report = failed(notOfferedReason(info, updater), info.version);
      return { ...report, verified: true, outcome: 'checked' };
    }
    const found: UpdateCheckReport = {
      available: true,
      version: info.version,
      downloaded: false,
      verified: true,
      reason: null,
      file: null,
      outcome: 'checked',
    };
    if (options.downloadDir === null) return found;
    let downloaded: string;
    // The reliability tests stop a download here (core/crashPoints.ts).
    updater.once('download-progress', () => crashPoint('update.downloading'));
    try {
      [downloaded] = await updater.downloadUpdate();
    } catch (thrown) {
      return failed(updateFailureReason(thrown, 'download_failed'), info.version);
    }
    const file = join(options.downloadDir, basename(downloaded));
    await rename(downloaded, file);
    return { ...found, downloaded: true, file };
  } finally {
    await rm(workDir, { recursive: true });
  }
}

/** Each check works in `<parent>/.reportdesk-update-check-<owner token>-<random>`. */
const WORK_DIR_PREFIX = '.reportdesk-update-check-';

/** Removes the work folders of checks whose process is gone (killed mid-download); never fails. */
async function sweepWorkDirs(parent: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(WORK_DIR_PREFIX)) continue;
    const owner = name.slice(WORK_DIR_PREFIX.length).replace(/-[^-]+$/, '');
    if (isOwnerToken(owner) && ownerIsGone(owner)) {
      await rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

/**
 * Why electron-updater did not offer the manifest's version: not newer; or newer, but this
 * system is older than its `minimumSystemVersion`, or this check fell outside its staged rollout.
 */
function notOfferedReason(info: UpdateInfo, updater: DownloadOnlyUpdater): UpdateCheckReason {
  if (updater.currentVersion.compare(info.version) >= 0) return 'up_to_date';
  return updater.isUpdateSupported(info) ? 'staged_rollout' : 'unsupported_system';
}

/** electron-updater's app adapter for an install of `version` that lives in `workDir` only. */
function checkAdapter(version: string, workDir: string, configFile: string): AppAdapter {
  return {
    version,
    name: 'ReportDesk',
    isPackaged: true,
    appUpdateConfigPath: configFile,
    // The staging id (stagingPercentage) is made afresh in here for every check.
    userDataPath: workDir,
    baseCachePath: workDir,
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
}
