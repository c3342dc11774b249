/**
 * The installed app's updates, over one of electron-updater's updaters already pointed at the
 * signed feed (./updaters.ts):
 * - automatic checks 10 s after start and every 6 hours (while on), a check on demand at any
 *   time; a newer version is downloaded in the background and then waits, "ready";
 * - a failure (feed down, 404, HTML, a refused signature or checksum) is logged and kept as a
 *   reason for Settings; the next interval tries again; nothing is ever shown as a dialog;
 * - a check that finds no newer version drops a downloaded one (a release pulled from the feed);
 * - it never restarts by itself: a restart is asked for, and waits while a sync, an export or
 *   changes run (or cancels the first two when asked); otherwise the update is installed when
 *   the app quits (beforeQuit), except for deb and rpm, whose install asks for the administrator.
 */
import type { AppUpdater, BaseUpdater } from 'electron-updater';
import { CancellationToken, type UpdateInfo } from 'builder-util-runtime';
import type {
  RunningWork,
  UpdateFailureReason,
  UpdatePreferences,
  UpdateStatus,
} from '../../../shared/contract';
import type { Logger } from '../log';
import { withoutControlCharacters } from '../text';
import { UNREF_TIMERS, type Timers } from '../timers';
import { updateFailureReason } from './updateFailure';
import type { UpdatesService, WorkActivity } from './updatesService';
import type { UpdateSettings, UpdateSettingsStore } from './updateSettings';
import { useChannel } from './updaters';

export const FIRST_CHECK_DELAY_MS = 10_000;
/** 6 hours. */
export const CHECK_INTERVAL_MS = 21_600_000;
/** How often a restart that waits looks again whether the work has finished. */
export const RESTART_POLL_MS = 1_000;
/**
 * A download that has not finished after this long is cancelled (and tried again at the next
 * check): Electron's net has no time-out of its own, and a stalled download would hold the
 * updater forever.
 */
export const DOWNLOAD_LIMIT_MS = 7_200_000;
/** Release notes longer than this are cut (a settings card, not a document viewer). */
export const MAX_RELEASE_NOTES_CHARS = 20_000;

export interface UpdateControllerOptions {
  /** BaseUpdater's subclasses install on quit through beforeQuit; MacUpdater natively. */
  updater: AppUpdater;
  settings: UpdateSettingsStore;
  currentVersion: string;
  install: UpdateStatus['install'];
  /** macOS: Squirrel.Mac installs a downloaded update when the app quits, by itself. */
  nativeInstallOnQuit: boolean;
  work: WorkActivity;
  onChange: (status: UpdateStatus) => void;
  logger: Logger;
  now?: () => Date;
  timers?: Timers;
}

type UpdateView = NonNullable<UpdateStatus['update']>;

export class UpdateController implements UpdatesService {
  private activity: 'idle' | 'checking' | 'downloading' | 'installing' = 'idle';
  /** Downloaded and verified, waiting to be installed. */
  private ready: UpdateView | null = null;
  /** Being downloaded. */
  private found: UpdateView | null = null;
  private percent: number | null = null;
  private failure: UpdateFailureReason | null = null;
  private waitingFor: RunningWork[] | null = null;
  private settings: UpdateSettings;
  private checkTimer: unknown = null;
  private restartTimer: unknown = null;
  private inFlight: Promise<void> | null = null;
  private closed = false;
  private readonly timers: Timers;
  private readonly now: () => Date;

  constructor(private readonly options: UpdateControllerOptions) {
    this.timers = options.timers ?? UNREF_TIMERS;
    this.now = options.now ?? (() => new Date());
    this.settings = options.settings.read();
    useChannel(options.updater, this.settings.channel);
    options.updater.autoInstallOnAppQuit = options.nativeInstallOnQuit;
    // electron-updater reports progress at most once a second, and only while it downloads.
    options.updater.on('download-progress', ({ percent }) => {
      this.percent = Math.floor(percent);
      this.changed();
    });
  }

  /** Schedules the first automatic check. */
  start(): void {
    if (this.settings.automatic) this.scheduleCheck(FIRST_CHECK_DELAY_MS);
  }

  status(): UpdateStatus {
    // A downloaded update stays "ready" while a later check runs quietly (no update is ready
    // while another downloads: the download replaced it).
    const phase = this.ready && this.activity !== 'installing' ? 'ready' : this.activity;
    return {
      managed: true,
      unmanagedReason: null,
      currentVersion: this.options.currentVersion,
      preferences: { automatic: this.settings.automatic, channel: this.settings.channel },
      lastCheckedAt: this.settings.lastCheckedAt,
      phase,
      update: this.found ?? this.ready,
      downloadPercent: this.percent,
      failure: this.failure,
      install: this.options.install,
      restartWaitingFor: this.waitingFor,
    };
  }

  async check(): Promise<UpdateStatus> {
    await this.runCheck();
    return this.status();
  }

  setPreferences(changes: Partial<UpdatePreferences>): UpdateStatus {
    const before = this.settings;
    this.settings = this.options.settings.change(changes);
    useChannel(this.options.updater, this.settings.channel);
    const turnedOn = this.settings.automatic && !before.automatic;
    if (!this.settings.automatic) this.cancelCheck();
    else if (turnedOn || this.settings.channel !== before.channel) this.scheduleCheck(FIRST_CHECK_DELAY_MS);
    this.changed();
    return this.status();
  }

  restart(options?: { cancelWork: boolean }): UpdateStatus {
    if (this.ready && this.activity !== 'installing') {
      if (options?.cancelWork) this.options.work.cancel();
      this.restartWhenIdle();
    }
    return this.status();
  }

  cancelRestart(): UpdateStatus {
    this.timers.clearTimeout(this.restartTimer);
    this.restartTimer = null;
    if (this.waitingFor !== null) {
      this.waitingFor = null;
      this.changed();
    }
    return this.status();
  }

  beforeQuit(): void {
    // MacUpdater (nativeInstallOnQuit) is the one updater that is not a BaseUpdater.
    const silentOnQuit = this.options.install === 'on-quit' && !this.options.nativeInstallOnQuit;
    if (!this.ready || !silentOnQuit) return;
    this.options.logger.info('Installing the downloaded update as the app quits', {
      version: this.ready.version,
    });
    // Silent, and not started again; after a restart already asked for, electron-updater ignores it.
    (this.options.updater as BaseUpdater).install(true, false);
  }

  close(): void {
    this.closed = true;
    this.cancelCheck();
    this.cancelRestart();
    this.options.settings.close();
  }

  private runCheck(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    this.cancelCheck();
    this.inFlight = this.checkOnce().finally(() => {
      this.inFlight = null;
      if (this.settings.automatic) this.scheduleCheck(CHECK_INTERVAL_MS);
    });
    return this.inFlight;
  }

  private async checkOnce(): Promise<void> {
    if (this.activity === 'installing') return;
    const { updater, logger } = this.options;
    this.activity = 'checking';
    this.changed();
    let info: UpdateInfo;
    try {
      const result = await updater.checkForUpdates();
      this.recordCheck();
      if (!result?.isUpdateAvailable) {
        if (this.ready)
          logger.info('The feed no longer offers the downloaded update', { version: this.ready.version });
        this.ready = null;
        this.settle(null);
        return;
      }
      info = result.updateInfo;
    } catch (thrown) {
      this.settle(this.failed(thrown, 'feed_unreachable'));
      return;
    }
    if (this.ready?.version === info.version) {
      this.settle(null);
      return;
    }
    // A newer download replaces the one that was ready (electron-updater clears its folder).
    this.ready = null;
    this.found = viewOf(info);
    this.percent = 0;
    this.activity = 'downloading';
    this.changed();
    const token = new CancellationToken();
    const limit = this.timers.setTimeout(() => token.cancel(), DOWNLOAD_LIMIT_MS);
    try {
      await updater.downloadUpdate(token);
    } catch (thrown) {
      this.settle(this.failed(thrown, 'download_failed'));
      return;
    } finally {
      this.timers.clearTimeout(limit);
    }
    this.ready = this.found;
    logger.info('An update is downloaded and verified', { version: info.version });
    this.settle(null);
  }

  private settle(failure: UpdateFailureReason | null): void {
    this.failure = failure;
    this.found = null;
    this.percent = null;
    this.activity = 'idle';
    this.changed();
  }

  private failed(thrown: unknown, otherwise: 'feed_unreachable' | 'download_failed'): UpdateFailureReason {
    const reason = updateFailureReason(thrown, otherwise);
    this.options.logger.warn('The update could not be checked or downloaded', {
      reason,
      error: thrown instanceof Error ? thrown.message.slice(0, 500) : String(thrown),
    });
    return reason;
  }

  private recordCheck(): void {
    const at = this.now().toISOString();
    try {
      this.settings = this.options.settings.change({ lastCheckedAt: at });
    } catch {
      // Already logged by the store; the time is still right for this session.
      this.settings = { ...this.settings, lastCheckedAt: at };
    }
  }

  private restartWhenIdle(): void {
    this.timers.clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const running = this.options.work.running();
    if (running.length > 0) {
      this.waitingFor = running;
      this.restartTimer = this.timers.setTimeout(() => this.restartWhenIdle(), RESTART_POLL_MS);
      this.changed();
      return;
    }
    this.waitingFor = null;
    this.activity = 'installing';
    this.changed();
    const { updater, logger } = this.options;
    // electron-updater reports a failed install as an 'error' event, during the call.
    let error: unknown = null;
    const onError = (thrown: Error) => (error = thrown);
    updater.on('error', onError);
    try {
      updater.quitAndInstall(false, true);
    } catch (thrown) {
      error = thrown;
    } finally {
      updater.off('error', onError);
    }
    if (error !== null) {
      logger.error('The update could not be installed', {
        error: error instanceof Error ? error.message : String(error),
      });
      this.failure = 'install_failed';
      this.activity = 'idle';
      this.changed();
    }
  }

  private scheduleCheck(delayMs: number): void {
    this.cancelCheck();
    if (this.closed) return;
    this.checkTimer = this.timers.setTimeout(() => {
      this.checkTimer = null;
      void this.runCheck();
    }, delayMs);
  }

  private cancelCheck(): void {
    this.timers.clearTimeout(this.checkTimer);
    this.checkTimer = null;
  }

  private changed(): void {
    if (!this.closed) this.options.onChange(this.status());
  }
}

/** What Settings shows of a version: its release notes as plain text, never markup to render. */
export function viewOf(info: UpdateInfo): UpdateView {
  return {
    version: info.version,
    releaseDate: typeof info.releaseDate === 'string' ? info.releaseDate : null,
    releaseNotes: releaseNotesText(info.releaseNotes),
  };
}

export function releaseNotesText(notes: UpdateInfo['releaseNotes']): string | null {
  const text =
    typeof notes === 'string'
      ? notes
      : Array.isArray(notes)
        ? notes.map((entry) => `${entry.version}\n${entry.note ?? ''}`).join('\n\n')
        : '';
  const clean = text
    .split(/\r?\n/)
    .map((line) => withoutControlCharacters(line).trimEnd())
    .join('\n')
    .trim();
  return clean === '' ? null : clean.slice(0, MAX_RELEASE_NOTES_CHARS);
}
