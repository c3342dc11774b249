/**
 * A write that failed because of the disk, told as such instead of "something went wrong": a
 * full disk (ENOSPC, EDQUOT, SQLITE_FULL) becomes `disk_full`, a folder that cannot be written
 * (EROFS, EACCES, EPERM, SQLITE_READONLY…) `read_only`. The error carries what a front end
 * needs to word it (the folder, the free bytes, the reports still available offline) in
 * `details`; its message is the core's plain sentence, and the log line names the code.
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { AppFailure, appError, type AppError } from '../../shared/errors';
import { errorCode } from './errorCode';

export type StorageProblem = 'disk_full' | 'read_only';

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const READ_ONLY_CODES = new Set(['EROFS', 'EACCES', 'EPERM']);
/** Below this many free bytes, an I/O error from SQLite is taken for a full disk. */
const NEARLY_FULL_BYTES = 64 * 1024;

/** Bytes free for this user on the disk holding `folder`, when the OS says. */
export function freeBytes(folder: string): number | undefined {
  let stats: ReturnType<typeof statfsSync>;
  try {
    stats = statfsSync(folder);
  } catch {
    return undefined;
  }
  return stats.bavail * stats.bsize;
}

/**
 * Why this process may not write in `folder` (EROFS on a read-only mount, EACCES without
 * permission), or null when it may — or when the folder does not exist yet (it will be made).
 */
export function readOnlyCode(folder: string): string | null {
  try {
    accessSync(folder, constants.W_OK);
    return null;
  } catch (error) {
    const code = errorCode(error);
    return code === 'ENOENT' ? null : code;
  }
}

/**
 * Which storage problem `error` is, if any. SQLite's I/O errors and "cannot open" say less:
 * they count when the disk is (nearly) full, or the folder is not writable, right now.
 * `free` answers the free bytes (freeBytes; tests give a figure).
 */
export function storageProblem(
  error: unknown,
  folder: string,
  free: (folder: string) => number | undefined = freeBytes,
): StorageProblem | null {
  const code = errorCode(error);
  if (FULL_CODES.has(code)) return 'disk_full';
  if (READ_ONLY_CODES.has(code) || code.startsWith('SQLITE_READONLY')) return 'read_only';
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN') {
    if ((free(folder) ?? Infinity) < NEARLY_FULL_BYTES) return 'disk_full';
    if (readOnlyCode(folder) !== null) return 'read_only';
  }
  return null;
}

export interface StoragePlace {
  /** The folder written to: the data folder, or an export's. */
  folder: string;
  /** 'data_folder' for ReportDesk's own data, 'export' for a file the user chose. */
  place: 'data_folder' | 'export';
  /** Reports of the profile still available offline (a full disk loses none of them). */
  offlineReports?: number;
}

/**
 * The AppError for a storage problem at `where` (its sentence names the folder and the free
 * space, as `free` answers it: freeBytes; tests give a figure).
 */
export function storageError(
  problem: StorageProblem,
  code: string,
  where: StoragePlace,
  freeOf: (folder: string) => number | undefined = freeBytes,
): AppError {
  const { folder, place, offlineReports } = where;
  if (problem === 'disk_full') {
    const free = freeOf(folder);
    return appError(
      'storage.disk_full',
      {
        place,
        folder,
        freeKnown: free === undefined ? 'no' : 'yes',
        freeMegabytes: free === undefined ? 0 : Math.floor(free / 100_000) / 10,
        offlineKnown: offlineReports === undefined ? 'no' : 'yes',
        offlineReports: offlineReports ?? 0,
      },
      {
        details: { folder, place, code, offlineReports, ...(free === undefined ? {} : { freeBytes: free }) },
      },
    );
  }
  return appError(
    'storage.read_only',
    { place, folder, code },
    { details: { folder, place, code, offlineReports } },
  );
}

/** `error` as a disk_full / read_only failure at `where`, or null when the disk is not the cause. */
export function storageFailure(error: unknown, where: StoragePlace): AppFailure | null {
  // An AppFailure has no code: it is never taken for the disk (it was told already).
  const problem = storageProblem(error, where.folder);
  return problem === null ? null : new AppFailure(storageError(problem, errorCode(error), where));
}

/**
 * `error` with the reports still available offline, when it is a data folder's `disk_full` or
 * `read_only` that does not say yet (the layer that knows the profile adds them); else as it is.
 */
export function withOfflineReports(error: unknown, offlineReports: () => number | undefined): unknown {
  if (!(error instanceof AppFailure)) return error;
  const { kind, details } = error.error;
  if ((kind !== 'disk_full' && kind !== 'read_only') || details?.place !== 'data_folder') return error;
  if (details.offlineReports !== undefined || details.folder === undefined) return error;
  let count: number | undefined;
  try {
    count = offlineReports();
  } catch {
    // Unknown (the cache cannot be read either): the sentence goes without the number.
  }
  if (count === undefined) return error;
  const where = { folder: details.folder, place: details.place, offlineReports: count };
  return new AppFailure(storageError(kind, details.code ?? kind, where));
}
