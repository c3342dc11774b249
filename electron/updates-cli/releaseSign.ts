/**
 * `npm run release-sign -- --private-key FILE MANIFEST...`: writes `MANIFEST.sig` beside each
 * manifest, the base64 Ed25519 signature of its exact bytes, and checks it at once with the
 * key's public half. Says whether that key is one the app trusts (its embedded keys): a feed
 * signed by another key is refused by every install. Exit 0 when all were signed, 2 otherwise.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { RELEASE_PUBLIC_KEYS } from '../core/updates/releaseKeys';
import {
  isSignedBy,
  privateKeyFromPem,
  publicKeyFromPem,
  ReleaseKeyError,
  signManifest,
  SIGNATURE_SUFFIX,
} from '../core/updates/signatures';
import { keyProblemSentence } from './words';

const USAGE = 'Usage: npm run release-sign -- --private-key FILE MANIFEST...';

/** A short id of a public key: the first 16 hex digits of the SHA-256 of its SPKI DER. */
function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

function fail(message: string): number {
  console.error(message);
  return 2;
}

function main(argv: string[]): number {
  let values: { 'private-key'?: string };
  let manifests: string[];
  try {
    ({ values, positionals: manifests } = parseArgs({
      args: argv,
      options: { 'private-key': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (thrown) {
    return fail(`${thrown instanceof Error ? thrown.message.split('\n')[0] : String(thrown)}\n${USAGE}`);
  }
  const keyFile = values['private-key'];
  if (!keyFile || manifests.length === 0)
    return fail(`--private-key and at least one manifest are needed.\n${USAGE}`);
  let privateKey: KeyObject;
  try {
    privateKey = privateKeyFromPem(readFileSync(keyFile, 'utf8'));
  } catch (thrown) {
    if (thrown instanceof ReleaseKeyError)
      return fail(keyProblemSentence('--private-key', keyFile, thrown.problem));
    return fail(`--private-key ${keyFile} cannot be read.`);
  }
  const publicKey = createPublicKey(privateKey);
  const id = keyId(publicKey);
  const trusted = RELEASE_PUBLIC_KEYS.some((pem) => keyId(publicKeyFromPem(pem)) === id);

  let problems = 0;
  for (const manifest of manifests) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(manifest);
    } catch {
      problems++;
      console.error(`${manifest} cannot be read; it was not signed.`);
      continue;
    }
    const signature = signManifest(bytes, privateKey);
    // Checked before it is written: a .sig that does not verify is never published.
    if (!isSignedBy(bytes, signature, [publicKey])) {
      problems++;
      console.error(`The signature of ${manifest} did not verify; nothing was written.`);
      continue;
    }
    // Readable as the manifest beside it is (the umask's mode): the feed's web server serves both.
    writeFileSync(`${manifest}${SIGNATURE_SUFFIX}`, signature);
    console.log(`Signed ${manifest} → ${manifest}${SIGNATURE_SUFFIX} (key ${id}).`);
  }
  if (!trusted) {
    console.error(
      `Key ${id} is not one of the app's embedded release keys (electron/core/updates/releaseKeys.ts): installed apps will refuse a feed signed with it. Check it with npm run update-check -- --public-key.`,
    );
  }
  return problems > 0 ? 2 : 0;
}

process.exit(main(process.argv.slice(2)));
