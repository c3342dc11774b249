/**
 * profiles.json on disk: what a read finds (good, missing, written by a newer ReportDesk, or
 * damaged — truncated, garbage, the wrong shape, unreadable), its backup (`profiles.json.backup`,
 * the previous good file, kept by every change), and the copies of damaged files set aside
 * (`profiles.json.corrupt-<time>`). ProfileStore decides what to do with each.
 */
import type { UnusableProfilesFile } from '../../../shared/errorCodes';
import {
  closeSync,
  copyFileSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  type Stats,
  unlinkSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { asideName } from '../asideName';
import { errorCode } from '../errorCode';
import { ProfilesFileSchema, type ProfilesFile, type StoredProfile } from './profileRecord';

export const BACKUP_SUFFIX = '.backup';
/** Copies of damaged files kept at most; the oldest go first. */
const SET_ASIDE_KEPT = 5;

/** Identifies one version of the file: a rename always brings a new inode. */
export function signatureOf(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

export type FileRead =
  | { kind: 'missing' }
  | { kind: 'good'; state: ProfilesFile; text: string; signature: string }
  | { kind: 'newer'; version: number; signature: string }
  | { kind: 'damaged'; why: UnusableProfilesFile; signature: string | null };

export const EMPTY_PROFILES: ProfilesFile = { version: 1, activeId: null, profiles: [] };

/** Parses a profiles list (the active id falls back to the first profile), or says why it is none. */
export function parseProfiles(
  text: string,
): { state: ProfilesFile } | { why: UnusableProfilesFile } | { newer: number } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { why: { reason: 'not_json' } };
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > 1) return { newer: version };
  const parsed = ProfilesFileSchema.safeParse(json);
  if (!parsed.success) return { why: { reason: 'not_profiles' } };
  const { activeId, profiles } = parsed.data;
  const known = profiles.some((profile) => profile.id === activeId);
  return { state: { ...parsed.data, activeId: known ? activeId : (profiles[0]?.id ?? null) } };
}

/** Reads and classifies the file (one open: its signature and its text are of the same version). */
export function readProfilesFile(file: string): FileRead {
  let text: string;
  let signature: string;
  try {
    const fd = openSync(file, 'r');
    try {
      signature = signatureOf(fstatSync(fd));
      // Buffer#toString reads it as UTF-8.
      text = readFileSync(fd).toString();
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'missing' };
    let known: string | null = null;
    try {
      known = signatureOf(statSync(file));
    } catch {
      // Not even a stat: the signature stays unknown.
    }
    return {
      kind: 'damaged',
      why: { reason: 'unreadable', readCode: errorCode(error) },
      signature: known,
    };
  }
  const parsed = parseProfiles(text);
  if ('newer' in parsed) return { kind: 'newer', version: parsed.newer, signature };
  if ('why' in parsed) return { kind: 'damaged', why: parsed.why, signature };
  return { kind: 'good', state: parsed.state, text, signature };
}

/** The backup, when there is one and it is a good profile list, with when it was saved. */
export function readBackup(file: string): { state: ProfilesFile; text: string; savedAt: string } | null {
  const read = readProfilesFile(file + BACKUP_SUFFIX);
  if (read.kind !== 'good') return null;
  return { state: read.state, text: read.text, savedAt: statSync(file + BACKUP_SUFFIX).mtime.toISOString() };
}

/** The damaged copies kept beside `file`, newest first. */
export function damagedCopies(file: string): string[] {
  const prefix = `${basename(file)}.corrupt-`;
  let names: string[];
  try {
    names = readdirSync(dirname(file)).filter((name) => name.startsWith(prefix));
  } catch {
    return [];
  }
  // Names sort by time; a folder may answer them in any order (FAT).
  names.sort();
  return names.reverse().map((name) => join(dirname(file), name));
}

/** The bytes of `path`, or null when it cannot be read (gone, a folder, unreadable). */
function bytesOf(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/**
 * Keeps a copy of the damaged `file` aside (once: a copy with the same bytes is reused), and
 * answers where; the file itself when it cannot be copied (unreadable, a folder).
 */
export function copyAside(file: string): string {
  const bytes = bytesOf(file);
  if (bytes === null) return file;
  const same = damagedCopies(file).find((copy) => bytesOf(copy)?.equals(bytes));
  if (same) return same;
  const aside = asideName(file);
  try {
    copyFileSync(file, aside);
    return aside;
  } catch {
    return file;
  }
}

/** Removes the oldest damaged copies beyond SET_ASIDE_KEPT (never fails). */
export function pruneDamagedCopies(file: string): void {
  for (const old of damagedCopies(file).slice(SET_ASIDE_KEPT)) {
    try {
      unlinkSync(old);
    } catch {
      // Gone already, or not ours to remove (a folder is never unlinked).
    }
  }
}

/** A profile this folder once had, found in its backup or in a damaged copy (to restore an orphaned key's profile). */
export interface KnownProfile {
  id: string;
  source: 'backup' | 'damaged_file';
  /** The profile as far as it could be read; null when only its id could. */
  stored: StoredProfile | null;
}

/**
 * Every profile ReportDesk can still find beside `file`: in the backup, then in the damaged
 * copies — read whole when they parse, else salvaged field by field from what is left of them
 * (a truncated file still names its profiles' ids). Ids found nowhere here belong to no profile
 * of this folder: another data folder may share the keychain, and its keys are not ours.
 */
export function knownProfiles(file: string): KnownProfile[] {
  const known: KnownProfile[] = [];
  const backup = readBackup(file);
  for (const stored of backup?.state.profiles ?? []) known.push({ id: stored.id, source: 'backup', stored });
  for (const copy of damagedCopies(file)) {
    const read = readProfilesFile(copy);
    if (read.kind === 'good') {
      for (const stored of read.state.profiles) known.push({ id: stored.id, source: 'damaged_file', stored });
      continue;
    }
    let text: string;
    try {
      text = readFileSync(copy, 'utf8');
    } catch {
      continue;
    }
    for (const salvaged of salvageProfiles(text)) known.push({ ...salvaged, source: 'damaged_file' });
  }
  return known;
}

const ID_FIELD = /"id"\s*:\s*"([A-Za-z0-9_-]{1,64})"/g;

/** The profiles a damaged (truncated, garbled) profiles text still shows: each id, and its fields where they survive. */
export function salvageProfiles(text: string): { id: string; stored: StoredProfile | null }[] {
  const matches = [...text.matchAll(ID_FIELD)];
  return matches.map((match, index) => {
    const id = match[1];
    const rest = text.slice(match.index + match[0].length, matches[index + 1]?.index ?? text.length);
    const name = stringField(rest, 'name');
    const baseUrl = stringField(rest, 'baseUrl');
    if (name === null || baseUrl === null) return { id, stored: null };
    return {
      id,
      stored: {
        id,
        name,
        baseUrl,
        allowInsecureHttp: /"allowInsecureHttp"\s*:\s*true/.test(rest),
        demo: /"demo"\s*:\s*true/.test(rest),
        createdAt: stringField(rest, 'createdAt') ?? new Date(0).toISOString(),
      },
    };
  });
}

/** A JSON string field's value in `text`, or null when it is not there whole. */
function stringField(text: string, field: string): string | null {
  const match = new RegExp(`"${field}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(text);
  try {
    // No match (null) fails here as surely as a string JSON cannot read: either way, no value.
    const value = JSON.parse((match as RegExpExecArray)[1]) as string;
    return value === '' ? null : value;
  } catch {
    return null;
  }
}
