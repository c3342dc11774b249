/**
 * What the gateway's `updates:*` channels talk to. The app passes the real one
 * (./updateController.ts over electron-updater); the browser preview and the CLI have no
 * updater and answer `unmanagedUpdates`: a state that says updates belong to the installed
 * app, which every call returns unchanged.
 */
import type { RunningWork, UpdatePreferences, UpdateStatus } from '../../../shared/contract';
import { DEFAULT_UPDATE_SETTINGS } from './updateSettings';

export interface UpdatesService {
  status(): UpdateStatus;
  /** Checks the feed now (and downloads a newer version); resolves when that has finished. */
  check(): Promise<UpdateStatus>;
  setPreferences(changes: Partial<UpdatePreferences>): UpdateStatus;
  /** Restarts into the downloaded update once no work runs (after cancelling it, if asked). */
  restart(options?: { cancelWork: boolean }): UpdateStatus;
  cancelRestart(): UpdateStatus;
  /** The app is quitting: a downloaded update that installs on quit is installed now. */
  beforeQuit(): void;
  close(): void;
}

/** The work a restart waits for, as the core sees it; `cancel` stops the sync and the export. */
export interface WorkActivity {
  running(): RunningWork[];
  cancel(): void;
}

export function unmanagedUpdates(
  reason: NonNullable<UpdateStatus['unmanagedReason']>,
  currentVersion: string | null = null,
): UpdatesService {
  const status: UpdateStatus = {
    managed: false,
    unmanagedReason: reason,
    currentVersion,
    preferences: { automatic: DEFAULT_UPDATE_SETTINGS.automatic, channel: DEFAULT_UPDATE_SETTINGS.channel },
    lastCheckedAt: null,
    phase: 'idle',
    update: null,
    downloadPercent: null,
    failure: null,
    install: 'on-quit',
    restartWaitingFor: null,
  };
  const answer = () => ({ ...status, preferences: { ...status.preferences } });
  return {
    status: answer,
    check: async () => answer(),
    setPreferences: answer,
    restart: answer,
    cancelRestart: answer,
    beforeQuit: () => undefined,
    close: () => undefined,
  };
}
