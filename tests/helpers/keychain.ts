/**
 * The key store for integration tests: the real OS keychain through keytar when the suite runs
 * under scripts/with-keyring.sh (REPORT_DESK_TEST_KEYCHAIN=required), else an in-memory store,
 * said out loud so nobody mistakes that run for a keychain test.
 */
import { randomUUID } from 'node:crypto';
import { KeytarKeyStore, MemoryKeyStore, type KeyStore } from '../../electron/core/keys/keyStore';

export const REAL_KEYCHAIN = process.env.REPORT_DESK_TEST_KEYCHAIN === 'required';

export function testKeyStore(): { store: KeyStore; service: string; real: boolean } {
  const service = `ReportDesk-test-${randomUUID()}`;
  if (REAL_KEYCHAIN) return { store: new KeytarKeyStore({ service }), service, real: true };
  console.warn('keychain: REPORT_DESK_TEST_KEYCHAIN is not "required" — using an in-memory key store');
  return { store: new MemoryKeyStore(), service, real: false };
}
