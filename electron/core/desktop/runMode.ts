/**
 * What a development run (`npm start`: Electron started on the checkout, not an installed app)
 * does differently from the packaged app, so that it never gets in an installed ReportDesk's way:
 *  - its own data folder, ReportDesk-dev next to ReportDesk: Electron keys the single-instance
 *    lock on the userData folder, so a shared folder would let a dev run take the installed app's
 *    lock (and its profiles and cache);
 *  - no reportdesk:// registration unless asked: registering from a checkout points the OS at
 *    node_modules' Electron (electron.exe on Windows) and takes links away from the installed app.
 */
import { join, resolve } from 'node:path';

/** Set to 1 to let a development run register reportdesk:// links (to try deep links). */
export const REGISTER_LINKS_ENV = 'REPORT_DESK_REGISTER_LINKS';
/** Moves every file the app writes (tests, portable use). */
export const DATA_DIR_ENV = 'REPORT_DESK_DATA_DIR';
export const DEV_DATA_FOLDER = 'ReportDesk-dev';

export interface RunMode {
  /** app.isPackaged */
  packaged: boolean;
  env: Record<string, string | undefined>;
  /** An end-to-end test run (REPORT_DESK_E2E=1): no OS integration at all. */
  e2e: boolean;
}

/** The userData folder to set before anything reads it, or null to keep Electron's default. */
export function userDataOverride(mode: RunMode, appDataDir: string): string | null {
  const explicit = mode.env[DATA_DIR_ENV];
  if (explicit) return resolve(explicit);
  return mode.packaged ? null : join(appDataDir, DEV_DATA_FOLDER);
}

/** Whether this run registers ReportDesk as the reportdesk:// handler with the OS. */
export function registersDeepLinks(mode: RunMode): boolean {
  if (mode.e2e) return false;
  return mode.packaged || mode.env[REGISTER_LINKS_ENV] === '1';
}
