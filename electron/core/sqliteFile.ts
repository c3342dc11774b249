/**
 * Damage and a read-only folder as cases, not crashes, for ReportDesk's SQLite files (the
 * offline copy, cache.sqlite, and what only this computer knows, local.sqlite; opening itself
 * is cache/cacheFile.ts):
 *
 * - a quick check when the last run on the folder did not end cleanly;
 * - a file that is damaged (SQLITE_CORRUPT, SQLITE_NOTADB at open, by the check, or later from
 *   any statement) is renamed aside with its -wal and -shm as `<file>.corrupt-<time>` (a few
 *   kept, the oldest removed) and a new file takes its place;
 * - a folder this process cannot write is not a failure to open: a private temporary copy is
 *   opened instead (reads work, every write is refused by the file's owner, which knows why).
 */
import type Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { asideName } from './asideName';
import { crashPoint } from './crashPoints';
import { errorCode } from './errorCode';

/** Damaged files kept aside per file (each with its -wal and -shm); older ones are removed. */
export const SET_ASIDE_KEPT = 2;

/** Whether SQLite says the file is damaged. */
export function isDamage(error: unknown): boolean {
  const code = errorCode(error);
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

/** PRAGMA quick_check's verdict: 'ok', or its findings one per line. */
export function quickCheck(db: Database.Database): string {
  const rows = db.pragma('quick_check') as { quick_check: string }[];
  return rows.map((row) => row.quick_check).join('\n');
}

export interface SetAside {
  /** The damaged file's new name (its -wal and -shm beside it with those suffixes). */
  asideAs: string;
  /** What said it was damaged: SQLITE_CORRUPT, SQLITE_NOTADB, or the quick check's first finding. */
  code: string;
}

/** Renames `file` and its -wal and -shm aside as `<file>.corrupt-<time>`; removes older sets beyond SET_ASIDE_KEPT. */
export function setAside(file: string, code: string, now = new Date()): SetAside {
  const asideAs = asideName(file, now);
  renameSync(file, asideAs);
  for (const suffix of ['-wal', '-shm']) {
    try {
      renameSync(file + suffix, asideAs + suffix);
    } catch {
      // None (a clean close removes them), or it cannot be moved: a new file must not meet it.
      rmSync(file + suffix, { force: true });
    }
  }
  crashPoint('file.set-aside');
  pruneSetAside(file);
  return { asideAs, code };
}

/** Keeps the newest SET_ASIDE_KEPT damaged copies of `file` (the names sort by time). */
export function pruneSetAside(file: string, keep = SET_ASIDE_KEPT): void {
  const dir = dirname(file);
  const prefix = `${basename(file)}.corrupt-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  names = names.filter((name) => name.startsWith(prefix) && !/-(wal|shm)$/.test(name));
  // Names sort by time; a folder may answer them in any order (FAT).
  names.sort();
  for (const name of names.reverse().slice(keep)) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, name + suffix), { force: true });
  }
}

/**
 * A private copy of `file` (and its -wal) in the system's temporary folder, for a data folder
 * this process cannot write: SQLite cannot open a WAL file there (it needs its -shm). The copy
 * is removed by `discard`. Null when there is no file or it cannot be copied.
 */
export function temporaryCopy(file: string, parent = tmpdir()): { file: string; discard: () => void } | null {
  if (!existsSync(file) || statSync(file).size === 0) return null;
  let dir: string | null = null;
  try {
    dir = mkdtempSync(join(parent, 'reportdesk-read-only-'));
    const copy = join(dir, basename(file));
    copyFileSync(file, copy);
    if (existsSync(file + '-wal')) copyFileSync(file + '-wal', copy + '-wal');
    const made = dir;
    return { file: copy, discard: () => rmSync(made, { recursive: true, force: true }) };
  } catch {
    // Made just now (mkdtemp succeeded when dir is set): it is there to remove.
    if (dir) rmSync(dir, { recursive: true });
    return null;
  }
}
