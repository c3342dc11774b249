/** Ed25519 manifest signatures with Node's crypto: what verifies, and every way it must not. */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isSignedBy,
  privateKeyFromPem,
  publicKeyFromPem,
  ReleaseKeyError,
  signManifest,
  SIGNATURE_SUFFIX,
} from '../../../electron/core/updates/signatures';
import { RELEASE_PUBLIC_KEYS } from '../../../electron/core/updates/releaseKeys';

const ed = () => generateKeyPairSync('ed25519');
const pem = {
  publicOf: (key: ReturnType<typeof ed>) => key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  privateOf: (key: ReturnType<typeof ed>) =>
    key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};
const problemOf = (run: () => unknown) => {
  try {
    run();
  } catch (thrown) {
    return thrown instanceof ReleaseKeyError ? thrown.problem : `other: ${String(thrown)}`;
  }
  return 'none';
};

describe('signing and verifying', () => {
  const release = ed();
  const manifest = Buffer.from('version: 1.2.0\nfiles:\n  - url: a.AppImage\n');

  it('a .sig is the base64 Ed25519 signature of the exact bytes, one line', () => {
    const sig = signManifest(manifest, release.privateKey);
    expect(sig).toMatch(/^[A-Za-z0-9+/]{86}==\n$/);
    expect(isSignedBy(manifest, sig, [release.publicKey])).toBe(true);
    expect(SIGNATURE_SUFFIX).toBe('.sig');
  });

  it('verifies with any of the trusted keys (two during a rotation), and tolerates surrounding whitespace', () => {
    const other = ed();
    const sig = signManifest(manifest, release.privateKey);
    expect(isSignedBy(manifest, sig, [other.publicKey, release.publicKey])).toBe(true);
    expect(isSignedBy(manifest, `  ${sig.trim()}\r\n`, [release.publicKey])).toBe(true);
    expect(isSignedBy(manifest, sig, [other.publicKey])).toBe(false);
    expect(isSignedBy(manifest, sig, [])).toBe(false);
  });

  it('refuses other bytes, other text and anything that is not 64 bytes of base64', () => {
    const sig = signManifest(manifest, release.privateKey).trim();
    expect(isSignedBy(Buffer.concat([manifest, Buffer.from(' ')]), sig, [release.publicKey])).toBe(false);
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect(isSignedBy(manifest, flipped, [release.publicKey])).toBe(false);
    for (const bad of [
      '',
      sig.slice(0, 86),
      `${sig}AAAA`,
      sig.replace(/==$/, '=A'),
      `${sig.slice(0, 85)}-==`,
      `x${sig}`,
    ]) {
      expect(isSignedBy(manifest, bad, [release.publicKey]), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('keys', () => {
  it('takes an Ed25519 public key (SPKI PEM) and private key (PKCS#8 PEM)', () => {
    const key = ed();
    expect(publicKeyFromPem(pem.publicOf(key)).asymmetricKeyType).toBe('ed25519');
    expect(privateKeyFromPem(pem.privateOf(key)).type).toBe('private');
  });

  it('says what is wrong with a key of another kind or side, or no key at all', () => {
    const key = ed();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const rsaPublic = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const rsaPrivate = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(problemOf(() => publicKeyFromPem(pem.privateOf(key)))).toBe('not_public');
    expect(problemOf(() => publicKeyFromPem(rsaPublic))).toBe('not_ed25519');
    expect(problemOf(() => publicKeyFromPem('hello'))).toBe('unreadable');
    expect(problemOf(() => privateKeyFromPem(pem.publicOf(key)))).toBe('not_private');
    expect(problemOf(() => privateKeyFromPem(rsaPrivate))).toBe('not_ed25519');
    expect(
      problemOf(() => privateKeyFromPem('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')),
    ).toBe('unreadable');
    expect(new ReleaseKeyError('unreadable').message).toBe('release key: unreadable');
    expect(new ReleaseKeyError('unreadable').name).toBe('ReleaseKeyError');
  });

  it('the app embeds one or two Ed25519 public keys, and no private key', () => {
    expect(RELEASE_PUBLIC_KEYS.length).toBeGreaterThanOrEqual(1);
    expect(RELEASE_PUBLIC_KEYS.length).toBeLessThanOrEqual(2);
    for (const text of RELEASE_PUBLIC_KEYS) {
      expect(text).not.toMatch(/PRIVATE/);
      expect(publicKeyFromPem(text).asymmetricKeyType).toBe('ed25519');
    }
  });
});
