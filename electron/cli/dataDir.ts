/**
 * Where the CLI keeps its data: the very folder the desktop app uses (Electron's userData for
 * productName ReportDesk), so both share the profiles and the offline cache.
 */
import { homedir } from 'node:os';
import { posix, resolve, win32 } from 'node:path';
import { UsageError } from './args';

const APP_FOLDER = 'ReportDesk';
export const DATA_DIR_ENV = 'REPORT_DESK_DATA_DIR';

/** Electron's `appData` + the product name, per platform. */
export function defaultDataDir(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  home: string = homedir(),
): string {
  switch (platform) {
    case 'win32':
      return win32.join(env.APPDATA || win32.join(env.USERPROFILE || home, 'AppData', 'Roaming'), APP_FOLDER);
    case 'darwin':
      return posix.join(env.HOME || home, 'Library', 'Application Support', APP_FOLDER);
    default:
      return posix.join(env.XDG_CONFIG_HOME || posix.join(env.HOME || home, '.config'), APP_FOLDER);
  }
}

/** --data-dir, else $REPORT_DESK_DATA_DIR, else the app's folder; always absolute. */
export function resolveDataDir(
  option: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): string {
  if (option !== undefined) {
    if (option.trim() === '')
      throw new UsageError('--data-dir needs a folder, like --data-dir ~/reportdesk-data.');
    return resolve(option);
  }
  // An empty variable counts as unset, as shells make it easy to leave one behind.
  const fromEnv = env[DATA_DIR_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return resolve(fromEnv);
  return defaultDataDir(platform, env);
}
