/**
 * The account behind each cache scope: a key of another account never sees this cache.
 */
import { createHash } from 'node:crypto';
import type { Account } from '../../../shared/model';
import type { ReportCache } from '../cache/reportCache';
import type { Logger } from '../log';

const ACCOUNT_FINGERPRINT = 'account_fingerprint';

/**
 * Identifies the account behind a key. Only stable fields count (id, uuid, email): counters
 * and names change without the account changing. Without any of them, a hash of the whole
 * record stands in, and it is compared only when a new key is stored (see remember).
 */
export function accountFingerprint(account: Account): { value: string; stable: boolean } {
  for (const field of ['id', 'uuid', 'email']) {
    const value = account[field];
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') {
      return { value: `${field}:${value}`, stable: true };
    }
  }
  const hash = createHash('sha256').update(JSON.stringify(account)).digest('hex').slice(0, 32);
  return { value: 'hash:' + hash, stable: false };
}

export class Accounts {
  private readonly log: Logger;

  constructor(
    private readonly cache: ReportCache,
    private readonly now: () => Date,
    logger: Logger,
  ) {
    this.log = logger.child('gateway');
  }

  /**
   * Stores the account and clears the scope's cache when the key now belongs to another
   * account. On ordinary reads only stable fields decide; when a new key was just stored
   * (`newKey`), an account without stable fields is compared by its whole record, as the
   * cautious choice for a rare, deliberate action.
   */
  remember(scope: string, account: Account, newKey = false): void {
    const fingerprint = accountFingerprint(account);
    const previous = this.cache.getMeta(scope, ACCOUNT_FINGERPRINT);
    const comparable = newKey || (fingerprint.stable && previous?.startsWith('hash:') === false);
    if (previous !== null && comparable && previous !== fingerprint.value) {
      // Another account's data must never be shown under this key.
      this.log.info('account changed; clearing the cache of this scope', { scope });
      this.cache.clearScope(scope);
    }
    this.cache.setMeta(scope, ACCOUNT_FINGERPRINT, fingerprint.value);
    this.cache.putAccount(scope, account, this.now().toISOString());
  }
}
