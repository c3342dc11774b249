/**
 * The one way ReportDesk replaces a file it owns: write a temporary file beside it (created
 * 0600 with O_EXCL), fsync it, rename it over the target, fsync the folder. A crash or a full
 * disk leaves either the old file or the new one, never half of one, and the rename is durable
 * once this returns. Used by the profile store, the settings, window state, export files and
 * the demo store.
 *
 * A process killed mid-write leaves its temporary file behind. Each one is named after its
 * owner (`.<name>.<owner token>.<random>.tmp`, ./processOwner.ts), so the next write to the
 * same target — and the core's sweep of the data folder at start — removes the ones whose
 * process is gone, at once, and never one a live process is still writing.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  writeSync,
  unlinkSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crashPoint } from './crashPoints';
import { ownerIsGone, ownerToken } from './processOwner';
import { PRIVATE_FILE_MODE } from './privateFiles';

/** `.<name>.<owner>.<12 hex>.tmp`; owner as processOwner makes it. */
const TEMP = /^\..+\.([0-9a-f]{8}-(?:[0-9a-f]{8}|0)-\d+-\d+)\.[0-9a-f]{12}\.tmp$/;
/** Temporary files of older versions (`.<name>.<12 hex>.tmp`) name no owner: an hour old, they are stale. */
const OWNERLESS_TEMP = /^\..+\.[0-9a-f]{12}\.tmp$/;
const OWNERLESS_STALE_MS = 3_600_000;

/**
 * Replaces `file` with `content` (UTF-8). The folder must exist. Throws the file system's
 * error (with its `code`) and leaves the old file and no temporary file behind; each caller
 * words the failure for its user. Returns the new file's stats (its inode and times).
 * `platform` is the system's; tests name another to see what Windows would be spared.
 */
export function writeFileAtomic(
  file: string,
  content: string,
  platform: NodeJS.Platform = process.platform,
): Stats {
  const dir = dirname(file);
  // What killed writes left here (an export's folder is swept at its next export).
  sweepStaleTemps(dir);
  const temporary = join(dir, `.${basename(file)}.${ownerToken()}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temporary, 'wx', PRIVATE_FILE_MODE);
    const bytes = Buffer.from(content);
    const half = bytes.length >> 1;
    writeAll(fd, bytes.subarray(0, half));
    crashPoint('atomic-write.half-written');
    writeAll(fd, bytes.subarray(half));
    fsyncSync(fd);
    // The rename keeps the inode and times: these are the stats of the file we publish.
    const stats = fstatSync(fd);
    closeSync(fd);
    fd = null;
    // The umask cannot widen 0600 on create, but say it explicitly for file systems that ignore it.
    if (platform !== 'win32') chmodSync(temporary, PRIVATE_FILE_MODE);
    crashPoint('atomic-write.before-rename');
    renameSync(temporary, file);
    syncDirectory(dir, platform);
    return stats;
  } catch (thrown) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(temporary);
    } catch {
      // Never created (the open failed), or the folder is gone or unusable.
    }
    throw thrown;
  }
}

/** writeSync until every byte is written (a write may take fewer than asked). */
function writeAll(fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset);
}

/**
 * Removes the temporary files in `dir` that a killed process left: their owner is gone; with
 * `ownerless` (the data folder only, where every such name is ours), also an older version's
 * unnamed ones more than an hour old (by `now`, the clock in ms). Answers how many. Never
 * throws: a folder that cannot be read or written has nothing this could clean.
 */
export function sweepStaleTemps(
  dir: string,
  options: { ownerless?: boolean; now?: () => number } = {},
): number {
  const now = options.now ?? Date.now;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const path = join(dir, entry);
    try {
      if (!isStaleTemp(path, entry, options.ownerless === true, now)) continue;
      unlinkSync(path);
      removed++;
    } catch {
      // Removed meanwhile by another process's sweep, or a read-only folder.
    }
  }
  return removed;
}

function isStaleTemp(path: string, entry: string, ownerless: boolean, now: () => number): boolean {
  const owned = TEMP.exec(entry);
  if (owned) return ownerIsGone(owned[1]);
  return ownerless && OWNERLESS_TEMP.test(entry) && now() - statSync(path).mtimeMs > OWNERLESS_STALE_MS;
}

/**
 * Makes a rename (or a new file) durable in its folder; not possible (nor needed) on Windows.
 * `platform` is the system's; tests name another.
 */
export function syncDirectory(dir: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
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
