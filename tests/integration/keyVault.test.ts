/**
 * KeyVault's promises beyond the happy path (keys.test.ts has those): only an unavailable
 * keychain counts as "no key" for display, every other failure still surfaces; an empty key is
 * refused before anything is stored; every key it touches is registered as a secret, whatever
 * the store behind it does; the hint appears from 8 characters on.
 */
import { describe, expect, it } from 'vitest';
import { KeytarKeyStore, MemoryKeyStore, type KeyStore } from '../../electron/core/keys/keyStore';
import { KeyVault } from '../../electron/core/keys/keyVault';
import { redact } from '../../electron/core/log';
import { AppFailure, appError } from '../../shared/errors';
import { rejectionOf as failureOf } from '../helpers/failures';

/** A keychain that is present but refuses every call, as a locked keyring does. */
function lockedKeychain(): KeyStore {
  const locked = () => Promise.reject(new Error('Cannot unlock the collection'));
  return new KeytarKeyStore({
    loadKeytar: async () => ({ getPassword: locked, setPassword: locked, deletePassword: locked }),
    platform: 'linux',
  });
}

/** A store that fails with something other than an unavailable keychain. */
function failingStore(error: unknown): KeyStore {
  return {
    get: () => Promise.reject(error),
    set: () => Promise.reject(error),
    delete: () => Promise.reject(error),
  };
}

/** A store that keeps keys without registering them anywhere (as a third-party store might). */
function plainStore(entries: Record<string, string>): KeyStore {
  const keys = new Map(Object.entries(entries));
  return {
    get: async (account) => keys.get(account) ?? null,
    set: async (account, secret) => {
      keys.set(account, secret);
    },
    delete: async (account) => keys.delete(account),
  };
}

describe('KeyVault.get: only an unavailable keychain reads as "no key"', () => {
  it('answers null for a locked keychain, while load() reports it', async () => {
    const vault = new KeyVault(lockedKeychain());
    expect(await vault.get('p')).toBeNull();
    expect(await vault.describe('p')).toEqual({ hasKey: false, keyHint: null, keyStorage: 'none' });
    const error = await failureOf(vault.load('p'));
    expect(error.kind).toBe('keychain_unavailable');
    expect(error.message).toMatch(/GNOME Keyring or KWallet/);
  });

  it('passes on an AppFailure of another kind', async () => {
    const broke = appError('lock.save_failed', { store: 'profiles', file: '/x/profiles.json', code: 'EIO' });
    const vault = new KeyVault(failingStore(new AppFailure(broke)));
    const error = await failureOf(vault.get('p'));
    expect(error).toEqual(broke);
  });

  it('passes on an error that is not an AppFailure', async () => {
    const vault = new KeyVault(failingStore(new TypeError('store is not a function')));
    await expect(vault.get('p')).rejects.toThrow('store is not a function');
    await expect(vault.describe('p')).rejects.toThrow('store is not a function');
  });
});

describe('KeyVault.set', () => {
  it('refuses an empty key and stores nothing anywhere', async () => {
    const keychain = new MemoryKeyStore();
    await keychain.set('p', 'existing-key-1234');
    const vault = new KeyVault(keychain);
    for (const sessionOnly of [false, true]) {
      const error = await failureOf(vault.set('p', '', { sessionOnly }));
      expect(error.kind).toBe('invalid_input');
      expect(error.fieldErrors?.apiKey?.[0]).toMatch(/API key/);
    }
    expect(await vault.get('p')).toEqual({ key: 'existing-key-1234', storage: 'keychain' });
  });

  it('keeps a session key even when the old keychain copy cannot be deleted', async () => {
    const vault = new KeyVault(lockedKeychain());
    expect(await vault.set('p', 'session-key-5678', { sessionOnly: true })).toBe('session');
    expect(await vault.load('p')).toEqual({ key: 'session-key-5678', storage: 'session' });
  });

  it('registers the key as a secret before storing it, in either place', async () => {
    const vault = new KeyVault(plainStore({}));
    await vault.set('a', 'vault-set-keychain-Aa1', { sessionOnly: false });
    await vault.set('b', 'vault-set-session-Bb2', { sessionOnly: true });
    expect(redact('vault-set-keychain-Aa1 vault-set-session-Bb2')).toBe('[redacted] [redacted]');
  });
});

describe('KeyVault.load', () => {
  it('registers a key read from the keychain as a secret', async () => {
    const vault = new KeyVault(plainStore({ p: 'vault-load-stored-Cc3' }));
    expect(await vault.load('p')).toEqual({ key: 'vault-load-stored-Cc3', storage: 'keychain' });
    expect(redact('key=vault-load-stored-Cc3')).toBe('key=[redacted]');
  });

  it('treats an empty stored key as no key', async () => {
    const vault = new KeyVault(plainStore({ p: '' }));
    expect(await vault.load('p')).toBeNull();
    expect(await vault.get('p')).toBeNull();
  });
});

describe('KeyVault.describe', () => {
  it('shows the last four characters from 8 characters on, none below', async () => {
    const vault = new KeyVault(new MemoryKeyStore());
    await vault.set('eight', 'abcd1234', { sessionOnly: true });
    await vault.set('seven', 'abc1234', { sessionOnly: false });
    expect(await vault.describe('eight')).toEqual({ hasKey: true, keyHint: '1234', keyStorage: 'session' });
    expect(await vault.describe('seven')).toEqual({ hasKey: true, keyHint: null, keyStorage: 'keychain' });
  });
});

describe('KeyVault.forRequest: the copies of keychain keys held in memory', () => {
  /** plainStore with each get counted: a read of the keychain is what a copy saves. */
  function countedStore(entries: Record<string, string>) {
    const store = plainStore(entries);
    const counted = {
      reads: 0,
      store: { ...store, get: (account: string) => (counted.reads++, store.get(account)) },
    };
    return counted;
  }

  it('forgetting one profile’s copy leaves the other profiles’ copies', async () => {
    const keychain = countedStore({ a: 'vault-copy-key-a-1', b: 'vault-copy-key-b-1' });
    const vault = new KeyVault(keychain.store);
    await vault.forRequest('a', '');
    await vault.forRequest('b', '');
    vault.forgetCopies('a');
    keychain.reads = 0;
    expect(await vault.forRequest('b', '')).toBe('vault-copy-key-b-1');
    expect(keychain.reads).toBe(0);
    expect(await vault.forRequest('a', '')).toBe('vault-copy-key-a-1');
    expect(keychain.reads).toBe(1);
    vault.forgetCopies();
    await vault.forRequest('b', '');
    expect(keychain.reads).toBe(2);
  });

  it('a stamp labels only this process’s own write: a copy read for another stamp is read again', async () => {
    const keychain = countedStore({ p: 'vault-stamp-old-key' });
    const vault = new KeyVault(keychain.store);
    expect(await vault.forRequest('p', 'A')).toBe('vault-stamp-old-key');
    // Another process stores a new key (stamp B) while this one holds the old copy.
    await keychain.store.set('p', 'vault-stamp-new-key');
    vault.stamp('p', 'B');
    expect(await vault.forRequest('p', 'B')).toBe('vault-stamp-new-key');
    // This process's own write is labelled by the stamp, and then served from memory.
    await vault.set('p', 'vault-stamp-own-key', { sessionOnly: false });
    vault.stamp('p', 'C');
    keychain.reads = 0;
    expect(await vault.forRequest('p', 'C')).toBe('vault-stamp-own-key');
    expect(keychain.reads).toBe(0);
  });

  it('heldFor answers from memory only: the session key, or the copy of that stamp', async () => {
    const keychain = countedStore({ p: 'vault-held-keychain-key' });
    const vault = new KeyVault(keychain.store);
    expect(vault.heldFor('p', 'A')).toBeUndefined();
    expect(keychain.reads).toBe(0);
    await vault.forRequest('p', 'A');
    expect(vault.heldFor('p', 'A')).toBe('vault-held-keychain-key');
    expect(vault.heldFor('p', 'B')).toBeUndefined();
    expect(vault.heldFor('q', 'A')).toBeUndefined();
    // A session key wins over any copy, whatever the stamp.
    await vault.set('p', 'vault-held-session-key', { sessionOnly: true });
    expect(vault.heldFor('p', 'B')).toBe('vault-held-session-key');
    expect(keychain.reads).toBe(1);
  });

  it('stamping after a session-only key is harmless, and the session key is served', async () => {
    const vault = new KeyVault(plainStore({}));
    await vault.set('p', 'vault-session-only-key', { sessionOnly: true });
    vault.stamp('p', 'A');
    expect(await vault.forRequest('p', 'A')).toBe('vault-session-only-key');
  });
});
