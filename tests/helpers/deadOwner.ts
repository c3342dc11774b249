/** The owner token of a real process that has exited (core/processOwner.ts), for "its process is gone". */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export function deadOwnerToken(): string {
  return execFileSync(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../fixtures/ownerTokenChild.ts')],
    {
      cwd: join(import.meta.dirname, '../..'),
      encoding: 'utf8',
    },
  ).trim();
}
