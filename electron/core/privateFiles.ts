/**
 * The data dir holds private reports (the cache), profile names and addresses and logs: no other
 * local user may read it. Everything ReportDesk writes there is created 0600 and every folder it
 * creates 0700. A folder that already exists is not changed behind the user's back (they may
 * have chosen a shared place on purpose); instead the core reports that it is readable by others
 * and each front end warns in its own words. POSIX modes only: on Windows the user's profile
 * folder is private by its ACL and chmod changes nothing, so there is nothing to check.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
const checksModes = process.platform !== 'win32';

export interface DataDirAccess {
  dir: string;
  /** The folder's permission bits, e.g. 0o755. */
  mode: number;
  /** True when group or other users may read, enter or write it. */
  readableByOthers: boolean;
}

/** Creates the folder 0700 when missing; tells whether an existing one is open to others. */
export function preparePrivateDir(dir: string): DataDirAccess {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const mode = statSync(dir).mode & 0o777;
  return { dir, mode, readableByOthers: checksModes && (mode & 0o077) !== 0 };
}

/**
 * Creates `file` empty with mode 0600 if it does not exist, and narrows an existing one to 0600
 * (files written by earlier versions). Used before SQLite opens its database: SQLite creates a
 * new file 0644 (less the umask) but gives its -wal and -shm files the database file's mode.
 */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  keepPrivate(file);
}

/** Narrows an existing file to 0600; a missing one is fine. */
export function keepPrivate(file: string): void {
  if (!checksModes) return;
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code !== 'ENOENT') throw thrown;
  }
}
