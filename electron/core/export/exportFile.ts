/**
 * Writes an export to a file the user named: atomically (./atomicWrite), so a crash or a full
 * disk never leaves half a file under that name, and with mode 0600, because an export may
 * hold private report URLs.
 */
import { dirname } from 'node:path';
import { AppFailure, appError } from '../../../shared/errors';
import { writeFileAtomic } from '../atomicWrite';
import { crashPoint } from '../crashPoints';
import { errorCode } from '../errorCode';
import { storageFailure } from '../storageFailure';

/** Writes the export; a full disk or a folder that cannot be written is told as such (`disk_full`, `read_only`). */
export function writeExportFile(path: string, content: string): void {
  crashPoint('export.before-write');
  try {
    writeFileAtomic(path, content);
  } catch (thrown) {
    const disk = storageFailure(thrown, { folder: dirname(path), place: 'export' });
    if (disk) throw disk;
    const code = errorCode(thrown);
    throw new AppFailure(appError('export.write_failed', { path, code }));
  }
}
