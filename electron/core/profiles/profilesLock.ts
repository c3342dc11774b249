/**
 * The profiles' cross-process lock: ../fileLock.ts on a small SQLite file beside the profiles
 * file (profiles.lock). The OS releases it when its holder exits or is killed, so a crashed
 * process never leaves a stale lock behind.
 */
import { dirname, join } from 'node:path';
import type { Logger } from '../log';
import { FileLock, lockFailure } from '../fileLock';

/** How long a change waits for another process's change to finish before giving up. */
export const PROFILE_LOCK_WAIT_MS = 10_000;

/** The lock beside a profiles file (exported for the tests that hold it from another process). */
export function profilesLockFile(profilesFile: string): string {
  return join(dirname(profilesFile), 'profiles.lock');
}

export class ProfilesLock extends FileLock {
  constructor(
    /** The profiles file, named in the sentence when the lock cannot be taken at all. */
    profilesFile: string,
    logger: Logger,
    waitMs: number = PROFILE_LOCK_WAIT_MS,
  ) {
    super(profilesLockFile(profilesFile), waitMs, (error) =>
      lockFailure(
        {
          store: 'profiles',
          file: profilesFile,
          waitMs,
          logger,
          logMessage: 'Locking the profiles failed.',
        },
        error,
      ),
    );
  }
}
