/**
 * Detached Ed25519 signatures of update manifests: `<manifest>.sig` beside each manifest holds
 * the base64 signature of the manifest's exact bytes. Node's own crypto signs and verifies; the
 * keys are PEM (public: SPKI, private: PKCS#8), and nothing but Ed25519 is accepted.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/** The signature file's name is the manifest's with this added. */
export const SIGNATURE_SUFFIX = '.sig';

/** An Ed25519 signature is 64 bytes: 86 base64 characters and "==". */
const SIGNATURE_BASE64 = /^[A-Za-z0-9+/]{86}==$/;

/** Why a key could not be used: not PEM at all, or a key of another kind than wanted. */
export class ReleaseKeyError extends Error {
  constructor(readonly problem: 'unreadable' | 'not_ed25519' | 'not_public' | 'not_private') {
    super(`release key: ${problem}`);
    this.name = 'ReleaseKeyError';
  }
}

/** A release public key from its SPKI PEM text; only Ed25519 public keys. */
export function publicKeyFromPem(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new ReleaseKeyError('unreadable');
  }
  // createPublicKey also derives a public key from a private one: refuse that file here.
  if (/PRIVATE KEY/.test(pem)) throw new ReleaseKeyError('not_public');
  if (key.asymmetricKeyType !== 'ed25519') throw new ReleaseKeyError('not_ed25519');
  return key;
}

/** The release private key from its PKCS#8 PEM text (release-sign only). */
export function privateKeyFromPem(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new ReleaseKeyError(/PUBLIC KEY/.test(pem) ? 'not_private' : 'unreadable');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ReleaseKeyError('not_ed25519');
  return key;
}

/** The `.sig` file's text for `manifest`: its base64 Ed25519 signature and a newline. */
export function signManifest(manifest: Uint8Array, privateKey: KeyObject): string {
  return `${sign(null, manifest, privateKey).toString('base64')}\n`;
}

/**
 * True when `signatureText` (a `.sig` file, surrounding whitespace allowed) is a signature of
 * exactly `manifest` by one of `publicKeys`.
 */
export function isSignedBy(
  manifest: Uint8Array,
  signatureText: string,
  publicKeys: readonly KeyObject[],
): boolean {
  const text = signatureText.trim();
  if (!SIGNATURE_BASE64.test(text)) return false;
  const signature = Buffer.from(text, 'base64');
  return publicKeys.some((key) => verify(null, manifest, key, signature));
}
