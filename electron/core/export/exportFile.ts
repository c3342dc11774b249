/**
 * Writes an export to a file the user named: through a temporary file beside it and a rename,
 * so a crash or a full disk never leaves half a file under that name, and with mode 0600,
 * because an export may hold private report URLs.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync, chmodSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AppFailure, appError } from '../../../shared/errors';

export function writeExportFile(path: string, content: string): void {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(temporary, 'wx', 0o600);
    writeSync(fd, content, null, 'utf8');
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    // The umask cannot widen 0600, but a file replaced by the rename keeps no old mode either.
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (thrown) {
    if (fd !== null) closeSync(fd);
    rmSync(temporary, { force: true });
    const code = (thrown as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new AppFailure(
      appError(
        'invalid_input',
        `The export could not be written to ${path} (${code}). Choose a folder you can write to and try again.`,
      ),
    );
  }
}
