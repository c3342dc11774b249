/**
 * A profile's API key: in the OS keychain, or — when the user chose so, typically because the
 * keychain is unavailable — in this process's memory for this session only.
 *
 * The vault is the one place keys are held in memory. A keychain key is kept after its first
 * read, stamped with the profile's `keySetAt`; a caller with a newer stamp (a key stored since,
 * by any process) gets it read again.
 */
import { AppFailure, invalidField } from '../../../shared/errors';
import { registerSecret } from '../log';
import { keyHint, type KeyStore } from './keyStore';

export type KeyStorage = 'keychain' | 'session';

export class KeyVault {
  private readonly keychain: KeyStore;
  private readonly sessionKeys = new Map<string, string>();
  /** Keychain keys read (or written) by this process, with the keySetAt they belong to. */
  private readonly keychainCopies = new Map<string, { key: string; keySetAt: string | null }>();

  constructor(keychain: KeyStore) {
    this.keychain = keychain;
  }

  /**
   * The key for a request about to be sent; the session key wins. A keychain that cannot be
   * read is reported as such (`keychain_unavailable`, saying what to unlock), not as "no key".
   */
  async load(profileId: string): Promise<{ key: string; storage: KeyStorage } | null> {
    const sessionKey = this.sessionKeys.get(profileId);
    if (sessionKey !== undefined) return { key: sessionKey, storage: 'session' };
    const stored = await this.keychain.get(profileId);
    if (stored === null || stored === '') return null;
    registerSecret(stored);
    return { key: stored, storage: 'keychain' };
  }

  /**
   * Like load, from memory when this process already holds the key stored at `keySetAt`
   * (the profile's stamp, '' for a key never replaced); otherwise read and kept.
   */
  async forRequest(profileId: string, keySetAt: string): Promise<string | null> {
    const held = this.heldFor(profileId, keySetAt);
    if (held !== undefined) return held;
    this.keychainCopies.delete(profileId);
    const stored = await this.load(profileId);
    if (!stored) return null;
    this.keychainCopies.set(profileId, { key: stored.key, keySetAt });
    return stored.key;
  }

  /** forRequest's answer when memory has it (a session key, or the copy stored at `keySetAt`); else undefined. */
  heldFor(profileId: string, keySetAt: string): string | undefined {
    const sessionKey = this.sessionKeys.get(profileId);
    if (sessionKey !== undefined) return sessionKey;
    const copy = this.keychainCopies.get(profileId);
    return copy && copy.keySetAt === keySetAt ? copy.key : undefined;
  }

  /** The key just written for a profile belongs to this keySetAt (known only after the write). */
  stamp(profileId: string, keySetAt: string): void {
    const copy = this.keychainCopies.get(profileId);
    if (copy && copy.keySetAt === null) copy.keySetAt = keySetAt;
  }

  /** Drops the keychain copies held in memory (one profile's, or all): the next request reads again. */
  forgetCopies(profileId?: string): void {
    if (profileId === undefined) this.keychainCopies.clear();
    else this.keychainCopies.delete(profileId);
  }

  /** Like load, for display: an unavailable keychain counts as holding no key. */
  async get(profileId: string): Promise<{ key: string; storage: KeyStorage } | null> {
    try {
      return await this.load(profileId);
    } catch (error) {
      if (isKeychainUnavailable(error)) return null;
      throw error;
    }
  }

  async set(profileId: string, key: string, options: { sessionOnly: boolean }): Promise<KeyStorage> {
    if (key === '') throw invalidField('apiKey', 'field.api_key_required');
    registerSecret(key);
    this.keychainCopies.delete(profileId);
    if (options.sessionOnly) {
      this.sessionKeys.set(profileId, key);
      // An older key left in the keychain would come back at the next start; drop it if we can.
      // Its answer is not needed, nor is a failure to drop it.
      await this.keychain.delete(profileId).catch(() => undefined);
      return 'session';
    }
    await this.keychain.set(profileId, key);
    this.sessionKeys.delete(profileId);
    // Its keySetAt is stamped by the caller once the profile records the change (see stamp).
    this.keychainCopies.set(profileId, { key, keySetAt: null });
    return 'keychain';
  }

  /** Forgets the key everywhere. The session copy goes even when the keychain fails. */
  async delete(profileId: string): Promise<void> {
    this.sessionKeys.delete(profileId);
    this.keychainCopies.delete(profileId);
    await this.keychain.delete(profileId);
  }

  /** The keychain's accounts with their hints (orphaned keys are found among them); null where it cannot list them. */
  async keychainAccounts(): Promise<{ account: string; keyHint: string | null }[] | null> {
    return this.keychain.accounts ? this.keychain.accounts() : null;
  }

  async describe(
    profileId: string,
  ): Promise<{ hasKey: boolean; keyHint: string | null; keyStorage: KeyStorage | 'none' }> {
    const found = await this.get(profileId);
    if (!found) return { hasKey: false, keyHint: null, keyStorage: 'none' };
    return { hasKey: true, keyHint: keyHint(found.key), keyStorage: found.storage };
  }
}

function isKeychainUnavailable(error: unknown): boolean {
  return error instanceof AppFailure && error.error.kind === 'keychain_unavailable';
}
