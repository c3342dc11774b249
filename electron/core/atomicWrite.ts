/**
 * The one way ReportDesk replaces a file it owns: write a temporary file beside it (created
 * 0600 with O_EXCL), fsync it, rename it over the target, fsync the folder. A crash or a full
 * disk leaves either the old file or the new one, never half of one, and the rename is durable
 * once this returns. Used by the profile store, window state, export files and the demo store.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fstatSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE } from './privateFiles';

/**
 * Replaces `file` with `content` (UTF-8). The folder must exist. Throws the file system's
 * error (with its `code`) and leaves the old file and no temporary file behind; each caller
 * words the failure for its user. Returns the new file's stats (its inode and times).
 */
export function writeFileAtomic(file: string, content: string): Stats {
  const dir = dirname(file);
  const temporary = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temporary, 'wx', PRIVATE_FILE_MODE);
    writeSync(fd, content, null, 'utf8');
    fsyncSync(fd);
    // The rename keeps the inode and times: these are the stats of the file we publish.
    const stats = fstatSync(fd);
    closeSync(fd);
    fd = null;
    // The umask cannot widen 0600 on create, but say it explicitly for file systems that ignore it.
    if (process.platform !== 'win32') chmodSync(temporary, PRIVATE_FILE_MODE);
    renameSync(temporary, file);
    syncDirectory(dir);
    return stats;
  } catch (thrown) {
    if (fd !== null) closeSync(fd);
    try {
      rmSync(temporary, { force: true });
    } catch {
      // The folder itself is gone or unusable: there is no temporary file to leave behind.
    }
    throw thrown;
  }
}

/** Makes the rename itself durable; not possible (nor needed) on Windows. */
function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename has still happened.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
