/**
 * The two release commands as real processes (from source through tsx, as `npm run` starts
 * them): `release-sign` signs manifests that `update-check` then accepts from a feed served on
 * 127.0.0.1, and `update-check` answers with the exit codes and JSON. Each process is
 * preloaded with a guard that ends it with 99 if anything loads `electron`.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSignedBy } from '../../electron/core/updates/signatures';
import {
  makeReleaseKeys,
  manifestFor,
  startUpdateFeed,
  type ReleaseKeys,
  type UpdateFeed,
} from '../helpers/updateFeed';
import { finished, type CliRun } from '../helpers/cli';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUARD = join(ROOT, 'tests/fixtures/noElectronPreload.mjs');

function run(args: string[]): Promise<CliRun> {
  return finished(spawn(process.execPath, ['--import', GUARD, '--import', 'tsx', ...args], { cwd: ROOT }));
}
const updateCheck = (...args: string[]) => run(['electron/updates-cli/updateCheck.ts', ...args]);
const releaseSign = (...args: string[]) => run(['electron/updates-cli/releaseSign.ts', ...args]);

let work: string;
let keys: ReleaseKeys;
let privateKeyFile: string;
let publicKeyFile: string;
let feed: UpdateFeed;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reportdesk-release-'));
  keys = makeReleaseKeys();
  privateKeyFile = join(work, 'release-key.pem');
  publicKeyFile = join(work, 'release-key.pub.pem');
  await writeFile(privateKeyFile, keys.privatePem, { mode: 0o600 });
  await writeFile(publicKeyFile, keys.publicPem);
  feed = await startUpdateFeed();
});

afterAll(async () => {
  await feed.stop();
  await rm(work, { recursive: true, force: true });
});

/** A release as the release machine makes it: the manifest written, signed by release-sign. */
async function release(version: string): Promise<{ manifest: string; fileName: string }> {
  const { text, fileName, content } = manifestFor({ version });
  const manifest = join(work, 'latest-linux.yml');
  await writeFile(manifest, text);
  const signed = await releaseSign('--private-key', privateKeyFile, manifest);
  expect(signed.code, signed.stderr).toBe(0);
  feed.put('latest-linux.yml', await readFile(manifest));
  feed.put('latest-linux.yml.sig', await readFile(`${manifest}.sig`));
  feed.put(fileName, content);
  return { manifest, fileName };
}

describe('the guard', () => {
  it('ends a process that loads electron, by require or by import (it is not vacuous)', async () => {
    const required = await run([
      '--input-type=module',
      '-e',
      "(await import('node:module')).createRequire(import.meta.url)('electron')",
    ]);
    expect(required.code).toBe(99);
    expect(required.stderr).toContain('ELECTRON-LOADED');
    const imported = await run(['--input-type=module', '-e', "await import('electron')"]);
    expect(imported.code).toBe(99);
  });
});

describe('release-sign', () => {
  it('writes MANIFEST.sig beside each manifest: the signature of its exact bytes', async () => {
    const a = join(work, 'latest.yml');
    const b = join(work, 'latest-mac.yml');
    await writeFile(a, 'version: 1.2.0\n');
    await writeFile(b, 'version: 1.2.0\r\nfiles: []\r\n');
    const result = await releaseSign('--private-key', privateKeyFile, a, b);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Signed .*latest\.yml → .*latest\.yml\.sig \(key [0-9a-f]{16}\)/);
    for (const file of [a, b]) {
      const sig = await readFile(`${file}.sig`, 'utf8');
      expect(isSignedBy(await readFile(file), sig, [keys.publicKey])).toBe(true);
      expect(isSignedBy(Buffer.from('version: 1.2.1\n'), sig, [keys.publicKey])).toBe(false);
    }
    // A test key is not one the app trusts: it says so.
    expect(result.stderr).toMatch(/not one of the app's embedded release keys/);
  });

  it('refuses a public key, a key of another kind, a missing key and missing manifests (exit 2)', async () => {
    const manifest = join(work, 'x.yml');
    await writeFile(manifest, 'version: 1.0.0\n');
    const rsa = join(work, 'rsa.pem');
    await writeFile(
      rsa,
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const cases: [string[], RegExp][] = [
      [['--private-key', publicKeyFile, manifest], /holds a public key/],
      [['--private-key', rsa, manifest], /not an Ed25519 key/],
      [['--private-key', join(work, 'nope.pem'), manifest], /cannot be read/],
      [['--private-key', privateKeyFile], /at least one manifest/],
      [['--private-key', privateKeyFile, join(work, 'missing.yml')], /missing\.yml cannot be read/],
      [['--key', privateKeyFile, manifest], /Unknown option/],
    ];
    for (const [args, message] of cases) {
      const result = await releaseSign(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    await expect(readFile(join(work, 'missing.yml.sig'))).rejects.toThrow();
  });
});

describe('update-check', () => {
  it('finds, downloads and verifies a newer version (exit 0), printing the JSON the issue names', async () => {
    const { fileName } = await release('1.4.0');
    const dir = await mkdtemp(join(work, 'dl-'));
    const result = await updateCheck(
      '--feed',
      feed.url,
      '--current',
      '1.3.2',
      '--public-key',
      publicKeyFile,
      '--download',
      dir,
      '--json',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      available: true,
      version: '1.4.0',
      downloaded: true,
      verified: true,
      reason: null,
    });
    expect(Object.keys(JSON.parse(result.stdout))).toEqual([
      'available',
      'version',
      'downloaded',
      'verified',
      'reason',
    ]);
    expect(await readdir(dir)).toEqual([fileName]);
  });

  it('says there is nothing newer in a sentence, and still exits 0', async () => {
    await release('1.4.0');
    const result = await updateCheck('--feed', feed.url, '--current', '1.4.0', '--public-key', publicKeyFile);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`No newer version is on ${feed.url}.`);
  });

  it('refuses a tampered download with 8 and leaves nothing in DIR', async () => {
    const { fileName } = await release('1.5.0');
    feed.put(fileName, Buffer.from('tampered'));
    const dir = await mkdtemp(join(work, 'dl-'));
    const result = await updateCheck(
      '--feed',
      feed.url,
      '--current',
      '1.0.0',
      '--public-key',
      publicKeyFile,
      '--download',
      dir,
      '--json',
    );
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stdout)).toEqual({
      available: false,
      version: '1.5.0',
      downloaded: false,
      verified: false,
      reason: 'checksum_mismatch',
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a feed signed by a key the app does not embed, unless --public-key names it (8)', async () => {
    await release('1.5.0');
    const result = await updateCheck('--feed', feed.url, '--current', '1.0.0');
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/not signed by a trusted release key/);
  });

  it('exits 6 for a feed that cannot be read, with one sentence', async () => {
    const result = await updateCheck('--feed', `${feed.origin}/nothing-here/`, '--current', '1.0.0');
    expect(result.code).toBe(6);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/has no manifest for this channel and platform \(404\)/);
  });

  it('exits 2 for bad usage, and for a plain-http feed elsewhere, which is never asked', async () => {
    const before = feed.requests.length;
    const cases: [string[], RegExp][] = [
      [['--current', '1.0.0'], /--feed is required/],
      [['--feed', feed.url], /--current is required/],
      [['--feed', 'http://updates.reportdesk.invalid/', '--current', '1.0.0'], /must use https:\/\//],
      [['--feed', feed.url, '--current', 'one'], /not a version number/],
      [['--feed', feed.url, '--current', '1.0.0', '--channel', '../x'], /--channel must be/],
      [
        ['--feed', feed.url, '--current', '1.0.0', '--download', join(work, 'nowhere')],
        /not an existing folder/,
      ],
      [['--feed', feed.url, '--current', '1.0.0', '--public-key', privateKeyFile], /holds a private key/],
      [['--feed', feed.url, '--current', '1.0.0', '--verbose=3'], /.+/],
    ];
    for (const [args, message] of cases) {
      const result = await updateCheck(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    expect(feed.requests.length).toBe(before);
  });
});
