/**
 * The cache scope of a connection without a profile (the CLI with REPORT_DESK_API_KEY) is
 * stored in every cached row. A plain hash of base URL + key would let anyone who can read the
 * cache test guesses of a weak key offline; an HMAC under a random salt kept in the data dir
 * (0600, beside the cache) does not, unless the salt is taken too.
 *
 * The salt is created once per data dir, race-safe: each process writes a candidate to a temp
 * file opened with O_EXCL and then hard-links it into place. link() fails if the name exists, so
 * when two processes race, exactly one salt wins, it is complete whenever it is visible, and the
 * loser reads the winner's.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AppFailure, englishOnlyError } from '../../../shared/errors';
import { PRIVATE_FILE_MODE, preparePrivateDir } from '../privateFiles';
import type { ReportCache } from './reportCache';

export const SCOPE_SALT_FILE = 'cache-scope.salt';
const SALT_BYTES = 32;
/** The scopes written before the salt: 'env-' + 32 hex digits of an unsalted sha256. */
const UNSALTED_SCOPE = /^env-[0-9a-f]{32}$/;
const UNSALTED_DROPPED = 'unsalted_scopes_dropped';

function readSalt(file: string): Buffer {
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]+$/.test(text) || text.length !== SALT_BYTES * 2) {
    // Only the CLI keeps keys given in REPORT_DESK_API_KEY: the app never meets this one.
    throw new AppFailure(
      englishOnlyError(
        'internal',
        `The cache key file ${file} is damaged. Delete it; the offline copy for keys given in REPORT_DESK_API_KEY is then downloaded again.`,
      ),
    );
  }
  return Buffer.from(text, 'hex');
}

/** This data dir's salt, created on first use. */
export function loadScopeSalt(dataDir: string): Buffer {
  preparePrivateDir(dataDir);
  const file = join(dataDir, SCOPE_SALT_FILE);
  try {
    return readSalt(file);
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code !== 'ENOENT') throw thrown;
  }
  const candidate = join(dataDir, `.${SCOPE_SALT_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(candidate, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, randomBytes(SALT_BYTES).toString('hex') + '\n');
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(candidate, file);
  } catch (thrown) {
    // Another process linked its salt first: that one is this data dir's salt.
    if ((thrown as NodeJS.ErrnoException).code !== 'EEXIST') throw thrown;
  } finally {
    rmSync(candidate, { force: true });
  }
  return readSalt(file);
}

/** The cache scope for a base URL + key: 'envh-' + 32 hex digits of HMAC-SHA256 under the salt. */
export function saltedScope(salt: Buffer, baseUrl: string, apiKey: string): string {
  return 'envh-' + createHmac('sha256', salt).update(`${baseUrl}\n${apiKey}`).digest('hex').slice(0, 32);
}

/**
 * Drops the rows cached under unsalted scopes (written by earlier versions), once per cache:
 * their scope is the very hash this replaces, and they are re-synced under the salted scope
 * when next used. Never renamed into the new scope: a key's rows are never mixed with another's.
 */
export function dropUnsaltedScopes(cache: ReportCache): number {
  if (cache.getMeta('', UNSALTED_DROPPED) !== null) return 0;
  let dropped = 0;
  cache.transaction(() => {
    for (const scope of cache.scopes()) {
      if (!UNSALTED_SCOPE.test(scope)) continue;
      cache.clearScope(scope);
      dropped++;
    }
    cache.setMeta('', UNSALTED_DROPPED, new Date().toISOString());
  });
  return dropped;
}
