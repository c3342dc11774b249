import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { KeytarKeyStore, MemoryKeyStore, type KeyStore } from '../../electron/core/keys/keyStore';
import { KeyVault } from '../../electron/core/keys/keyVault';
import { createLogger, memorySink } from '../../electron/core/log';
import type { AppError } from '../../shared/errors';
import { testKeyStore } from '../helpers/keychain';
import { skipWhen } from '../helpers/skip';
import { rejectionOf as failureOf } from '../helpers/failures';

const keychainRequired = process.env.REPORT_DESK_TEST_KEYCHAIN === 'required';
const service = `ReportDesk-test-${randomUUID()}`;

/** A keychain that is present but refuses every call, as a locked keyring does. */
function unavailableKeychain(): KeyStore {
  return new KeytarKeyStore({
    loadKeytar: async () => ({
      getPassword: async () => Promise.reject(new Error('Cannot unlock the collection')),
      setPassword: async () => Promise.reject(new Error('Cannot unlock the collection')),
      deletePassword: async () => Promise.reject(new Error('Cannot unlock the collection')),
    }),
    platform: 'linux',
  });
}

describe.skipIf(
  skipWhen(
    !keychainRequired,
    'the real-keychain tests need ./scripts/with-keyring.sh (a Secret Service on D-Bus)',
  ),
)('KeytarKeyStore on the real keychain (run through ./scripts/with-keyring.sh to enable)', () => {
  const store = new KeytarKeyStore({ service });
  afterAll(async () => {
    await store.delete('profile-a');
    await store.delete('profile-b');
  });

  it('writes, reads, replaces and deletes a key', async () => {
    expect(await store.get('profile-a')).toBeNull();
    await store.set('profile-a', 'key-aaaa-1111');
    await store.set('profile-b', 'key-bbbb-2222');
    expect(await store.get('profile-a')).toBe('key-aaaa-1111');
    await store.set('profile-a', 'key-aaaa-3333');
    expect(await store.get('profile-a')).toBe('key-aaaa-3333');
    expect(await store.delete('profile-a')).toBe(true);
    expect(await store.delete('profile-a')).toBe(false);
    expect(await store.get('profile-a')).toBeNull();
    expect(await store.get('profile-b')).toBe('key-bbbb-2222');
  });

  it('keeps keys across store instances (they live in the keychain, not in memory)', async () => {
    await new KeytarKeyStore({ service }).set('profile-b', 'key-bbbb-4444');
    const vault = new KeyVault(new KeytarKeyStore({ service }));
    expect(await vault.get('profile-b')).toEqual({ key: 'key-bbbb-4444', storage: 'keychain' });
    expect(await vault.describe('profile-b')).toEqual({
      hasKey: true,
      keyHint: '4444',
      keyStorage: 'keychain',
    });
  });
});

describe('KeytarKeyStore when the keychain is unavailable', () => {
  it('turns a keytar module that fails to load into keychain_unavailable, and logs no key', async () => {
    const sink = memorySink();
    const store = new KeytarKeyStore({
      service,
      platform: 'darwin',
      logger: createLogger('test', sink),
      loadKeytar: () => Promise.reject(new Error('Cannot find module keytar.node')),
    });
    const onSet = await failureOf(store.set('p', 'never-logged-key-9876'));
    expect(onSet.kind).toBe('keychain_unavailable');
    expect(onSet.message).toMatch(/login keychain/);
    expect(onSet.message).toMatch(/this session only/);
    expect((await failureOf(store.get('p'))).kind).toBe('keychain_unavailable');
    expect((await failureOf(store.delete('p'))).kind).toBe('keychain_unavailable');
    expect(sink.lines.join('\n')).toContain('Cannot find module keytar.node');
    expect(sink.lines.join('\n')).not.toContain('never-logged-key-9876');
  });

  it.skipIf(skipWhen(process.platform !== 'linux', 'the D-Bus Secret Service case exists on Linux only'))(
    'answers keychain_unavailable from a real keytar call with no D-Bus session',
    async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', join(__dirname, '../fixtures/keytarChild.ts'), service],
        {
          env: {
            ...process.env,
            DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/report-desk-bus',
            DISPLAY: '',
          },
        },
      );
      const attempts = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { action: string; error?: AppError });
      expect(attempts.map((a) => a.action)).toEqual(['set', 'get']);
      for (const attempt of attempts) {
        expect(attempt.error?.kind).toBe('keychain_unavailable');
        expect(attempt.error?.message).toMatch(/Secret Service such as GNOME Keyring or KWallet/);
      }
    },
  );
});

describe('KeyVault', () => {
  it('prefers a session key, and a keychain write drops the session copy', async () => {
    const keychain = new MemoryKeyStore();
    const vault = new KeyVault(keychain);
    expect(await vault.get('p')).toBeNull();
    expect(await vault.describe('p')).toEqual({ hasKey: false, keyHint: null, keyStorage: 'none' });

    expect(await vault.set('p', 'keychain-key-0001', { sessionOnly: false })).toBe('keychain');
    expect(await vault.get('p')).toEqual({ key: 'keychain-key-0001', storage: 'keychain' });

    expect(await vault.set('p', 'session-key-0002', { sessionOnly: true })).toBe('session');
    expect(await vault.describe('p')).toEqual({ hasKey: true, keyHint: '0002', keyStorage: 'session' });
    // The old keychain key must not come back at the next start.
    expect(await keychain.get('p')).toBeNull();

    expect(await vault.set('p', 'keychain-key-0003', { sessionOnly: false })).toBe('keychain');
    expect(await vault.get('p')).toEqual({ key: 'keychain-key-0003', storage: 'keychain' });

    await vault.delete('p');
    expect(await vault.get('p')).toBeNull();
    expect(await keychain.get('p')).toBeNull();
  });

  it('serves session keys while the keychain is unavailable, and reports a keychain write failure', async () => {
    const vault = new KeyVault(unavailableKeychain());
    expect(await vault.get('p')).toBeNull();
    expect(await vault.set('p', 'session-only-key-7777', { sessionOnly: true })).toBe('session');
    expect(await vault.get('p')).toEqual({ key: 'session-only-key-7777', storage: 'session' });

    const error = await failureOf(vault.set('q', 'wanted-in-keychain-1', { sessionOnly: false }));
    expect(error.kind).toBe('keychain_unavailable');
    expect(await vault.get('q')).toBeNull();

    // Deleting clears the session key even though the keychain cannot be reached.
    expect((await failureOf(vault.delete('p'))).kind).toBe('keychain_unavailable');
    expect(await vault.get('p')).toBeNull();
  });

  it('gives no hint for a key so short the hint would give it away', async () => {
    const vault = new KeyVault(new MemoryKeyStore());
    await vault.set('p', 'abc12', { sessionOnly: true });
    expect(await vault.describe('p')).toEqual({ hasKey: true, keyHint: null, keyStorage: 'session' });
  });

  it('holds one copy of a keychain key per keySetAt, re-reading when another process stored a new one', async () => {
    // The real keychain under with-keyring.sh; the second vault stands for another process.
    const { store } = testKeyStore();
    const reads: string[] = [];
    const counting: KeyStore = {
      get: (account) => {
        reads.push(account);
        return store.get(account);
      },
      set: (account, secret) => store.set(account, secret),
      delete: (account) => store.delete(account),
    };
    const vault = new KeyVault(counting);
    const otherProcess = new KeyVault(store);
    try {
      await otherProcess.set('p', 'first-key-of-p-1111', { sessionOnly: false });
      expect(await vault.forRequest('p', 'stamp-1')).toBe('first-key-of-p-1111');
      expect(await vault.forRequest('p', 'stamp-1')).toBe('first-key-of-p-1111');
      expect(reads).toEqual(['p']);

      // Another process stores a new key and bumps the profile's keySetAt.
      await otherProcess.set('p', 'second-key-of-p-2222', { sessionOnly: false });
      expect(await vault.forRequest('p', 'stamp-2')).toBe('second-key-of-p-2222');
      expect(reads).toEqual(['p', 'p']);

      // A key this vault wrote is held once its stamp is known, without a read.
      await vault.set('p', 'third-key-of-p-3333', { sessionOnly: false });
      vault.stamp('p', 'stamp-3');
      expect(await vault.forRequest('p', 'stamp-3')).toBe('third-key-of-p-3333');
      expect(reads).toEqual(['p', 'p']);

      // Forgotten copies are read again; a session key wins without any read.
      vault.forgetCopies();
      expect(await vault.forRequest('p', 'stamp-3')).toBe('third-key-of-p-3333');
      expect(reads).toEqual(['p', 'p', 'p']);
      await vault.set('p', 'session-key-of-p-4444', { sessionOnly: true });
      expect(await vault.forRequest('p', 'stamp-3')).toBe('session-key-of-p-4444');
      expect(reads).toEqual(['p', 'p', 'p']);

      await vault.delete('p');
      expect(await vault.forRequest('p', 'stamp-3')).toBeNull();
    } finally {
      await store.delete('p').catch(() => false);
    }
  });
});
