/**
 * Writes an export to a file the user named: atomically (./atomicWrite), so a crash or a full
 * disk never leaves half a file under that name, and with mode 0600, because an export may
 * hold private report URLs.
 */
import { AppFailure, appError } from '../../../shared/errors';
import { writeFileAtomic } from '../atomicWrite';
import { errorCode } from '../errorCode';

export function writeExportFile(path: string, content: string): void {
  try {
    writeFileAtomic(path, content);
  } catch (thrown) {
    const code = errorCode(thrown);
    throw new AppFailure(appError('export.write_failed', { path, code }));
  }
}
