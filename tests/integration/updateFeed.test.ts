/**
 * electron-updater's real code (its AppUpdater/BaseUpdater check and download, its sha512
 * DigestTransform, its staging and version rules) with our signed provider and transport,
 * against a feed this test serves on 127.0.0.1, through the update check the `update-check`
 * command runs. Nothing on this path may load `electron`: a guard fails any attempt.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectronNet, type FakeElectronNet } from '../helpers/electronNetRequest';
import { forbidElectron, type ElectronGuard } from '../helpers/noElectron';
import {
  makeReleaseKeys,
  manifestFor,
  publishRelease,
  startUpdateFeed,
  type ReleaseKeys,
  type UpdateFeed,
} from '../helpers/updateFeed';
import type {
  runUpdateCheck as RunUpdateCheck,
  UpdateCheckOptions,
} from '../../electron/core/updates/updateCheck';
import { createLogger, memorySink, silentLogger } from '../../electron/core/log';
import { electronNetTransport } from '../../electron/core/updates/electronTransport';
import { FEED_REQUEST_TIMEOUT_MS, FeedHttpExecutor } from '../../electron/core/updates/feedHttp';
import { MAX_MANIFEST_BYTES } from '../../electron/core/updates/signedFeedProvider';
import { signManifest } from '../../electron/core/updates/signatures';

let guard: ElectronGuard;
let runUpdateCheck: typeof RunUpdateCheck;
let feed: UpdateFeed;
let keys: ReleaseKeys;
let dir: string;

beforeAll(async () => {
  guard = forbidElectron();
  // Loaded under the guard: electron-updater's modules and ours.
  ({ runUpdateCheck } = await import('../../electron/core/updates/updateCheck'));
  keys = makeReleaseKeys();
});

afterAll(() => {
  guard.remove();
  expect(guard.attempts).toEqual([]);
});

beforeEach(async () => {
  feed = await startUpdateFeed();
  dir = await mkdtemp(join(tmpdir(), 'reportdesk-update-dl-'));
});

afterEach(async () => {
  await feed.stop();
  await rm(dir, { recursive: true, force: true });
});

const check = (options: Partial<UpdateCheckOptions> = {}) =>
  runUpdateCheck({
    feed: feed.url,
    currentVersion: '1.0.0',
    channel: 'latest',
    publicKeys: [keys.publicKey],
    downloadDir: dir,
    ...options,
  });

/** The paths asked, in order, without the query. */
const asked = () => feed.requests.map((request) => request.path.replace('/updates/', ''));

describe('a newer version', () => {
  it('is found, downloaded and checked against the signed sha512, after the signature was verified', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    const report = await check();
    expect(report).toEqual({
      available: true,
      version: '1.2.0',
      downloaded: true,
      verified: true,
      reason: null,
      file: join(dir, fileName),
      outcome: 'checked',
    });
    expect(await readFile(join(dir, fileName))).toEqual(manifestFor({ version: '1.2.0' }).content);
    // Only the file: electron-updater's working folder is gone.
    expect(await readdir(dir)).toEqual([fileName]);
    expect(asked()).toEqual(['latest-linux.yml', 'latest-linux.yml.sig', fileName]);
  });

  it('is only reported without --download', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    const report = await check({ downloadDir: null });
    expect(report).toMatchObject({ available: true, version: '1.2.0', downloaded: false, verified: true });
    expect(asked()).toEqual(['latest-linux.yml', 'latest-linux.yml.sig']);
  });

  it('is found by a prerelease of an older line too (semver order)', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    expect(await check({ currentVersion: '1.2.0-beta.3', downloadDir: null })).toMatchObject({
      available: true,
      version: '1.2.0',
    });
  });
});

describe('refused, with nothing downloaded or left in DIR', () => {
  it('a file that is not the one the manifest describes (tampered)', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    feed.put(fileName, Buffer.from('malicious payload'));
    const report = await check();
    expect(report).toMatchObject({
      available: false,
      version: '1.2.0',
      downloaded: false,
      verified: false,
      reason: 'checksum_mismatch',
      outcome: 'refused',
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('a manifest changed after it was signed', async () => {
    const { manifestPath, manifest } = publishRelease(feed, keys, { version: '1.2.0' });
    feed.put(manifestPath, manifest.replace('1.2.0', '1.2.1'));
    expect(await check()).toMatchObject({
      reason: 'signature_invalid',
      outcome: 'refused',
      downloaded: false,
    });
    expect(asked()).toEqual(['latest-linux.yml', 'latest-linux.yml.sig']);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a manifest with one byte more (a trailing newline) than was signed', async () => {
    const { manifestPath, manifest } = publishRelease(feed, keys, { version: '1.2.0' });
    feed.put(manifestPath, `${manifest}\n`);
    expect(await check()).toMatchObject({ reason: 'signature_invalid', outcome: 'refused' });
  });

  it('a manifest signed by another key', async () => {
    publishRelease(feed, makeReleaseKeys(), { version: '1.2.0' });
    expect(await check()).toMatchObject({ reason: 'signature_invalid', outcome: 'refused' });
    expect(asked()).not.toContain('ReportDesk-1.2.0.AppImage');
    expect(await readdir(dir)).toEqual([]);
  });

  it('a manifest without a .sig', async () => {
    publishRelease(feed, keys, { version: '1.2.0', signed: false });
    expect(await check()).toMatchObject({ reason: 'signature_missing', outcome: 'refused' });
    expect(asked()).toEqual(['latest-linux.yml', 'latest-linux.yml.sig']);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a .sig that is not a signature, or a signature of other bytes', async () => {
    const { manifestPath } = publishRelease(feed, keys, { version: '1.2.0' });
    for (const sig of ['not base64 at all', '', signManifest(Buffer.from('other'), keys.privateKey)]) {
      feed.put(`${manifestPath}.sig`, sig);
      expect(await check(), JSON.stringify(sig)).toMatchObject({ reason: 'signature_invalid' });
    }
    feed.put(`${manifestPath}.sig`, 'A'.repeat(5000));
    expect(await check()).toMatchObject({ reason: 'signature_invalid' });
  });

  it('a signed manifest that gives no sha512 for its file (electron-updater would take sha256)', async () => {
    const spec = {
      version: '1.2.0',
      manifest: { files: [{ url: 'ReportDesk-1.2.0.AppImage', sha2: 'ab' }] },
    };
    publishRelease(feed, keys, spec);
    expect(await check()).toMatchObject({ reason: 'feed_not_manifest', outcome: 'feed' });
    expect(asked()).not.toContain('ReportDesk-1.2.0.AppImage');
  });

  it('a signed manifest whose file is on a plain-http host', async () => {
    publishRelease(feed, keys, {
      version: '1.2.0',
      manifest: {
        files: [
          {
            url: 'http://downloads.reportdesk.invalid/ReportDesk-1.2.0.AppImage',
            sha512: 'A'.repeat(86) + '==',
          },
        ],
      },
    });
    expect(await check()).toMatchObject({ reason: 'insecure_feed', outcome: 'feed', downloaded: false });
    expect(await readdir(dir)).toEqual([]);
  });

  it('a download redirected to a plain-http host is never asked', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    feed.put(fileName, {
      status: 302,
      headers: { Location: 'http://downloads.reportdesk.invalid/ReportDesk-1.2.0.AppImage' },
      body: '',
    });
    expect(await check()).toMatchObject({ reason: 'insecure_feed', downloaded: false });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('not offered', () => {
  it('the same version', async () => {
    publishRelease(feed, keys, { version: '1.0.0' });
    expect(await check()).toEqual({
      available: false,
      version: '1.0.0',
      downloaded: false,
      verified: true,
      reason: 'up_to_date',
      file: null,
      outcome: 'checked',
    });
    expect(asked()).toEqual(['latest-linux.yml', 'latest-linux.yml.sig']);
  });

  it('an older version, even on another channel (no downgrade)', async () => {
    publishRelease(feed, keys, { version: '0.9.0' });
    expect(await check()).toMatchObject({ available: false, version: '0.9.0', reason: 'up_to_date' });
    publishRelease(feed, keys, { version: '0.9.5-beta.1', channel: 'beta' });
    expect(await check({ channel: 'beta' })).toMatchObject({ available: false, reason: 'up_to_date' });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('a feed that cannot be read', () => {
  it('404: the channel has no manifest', async () => {
    expect(await check()).toMatchObject({ reason: 'feed_not_found', outcome: 'feed', verified: false });
  });

  it('an HTML page, by its type or by its first character', async () => {
    feed.put('latest-linux.yml', {
      contentType: 'text/html; charset=utf-8',
      body: '<!doctype html><title>Hi</title>',
    });
    expect(await check()).toMatchObject({ reason: 'feed_not_manifest', outcome: 'feed' });
    feed.put('latest-linux.yml', {
      contentType: 'application/octet-stream',
      body: '\n  <html><p>Parked domain</p>',
    });
    expect(await check()).toMatchObject({ reason: 'feed_not_manifest' });
    expect(asked().filter((path) => path.endsWith('.sig'))).toEqual([]);
  });

  it('a server error, and a feed that is down', async () => {
    feed.put('latest-linux.yml', { status: 503, body: 'maintenance' });
    expect(await check()).toMatchObject({ reason: 'feed_unreachable', outcome: 'feed' });
    const url = feed.url;
    await feed.stop();
    expect(await check({ feed: url })).toMatchObject({ reason: 'feed_unreachable', outcome: 'feed' });
    feed = await startUpdateFeed();
  });

  it('a manifest larger than any manifest is', async () => {
    feed.put('latest-linux.yml', Buffer.alloc(1024 * 1024 + 10, 'a'));
    expect(await check()).toMatchObject({ reason: 'feed_not_manifest' });
  });

  it('a signed text that is not a manifest, or names an invalid version', async () => {
    const text = 'just: [some, yaml]\n';
    feed.put('latest-linux.yml', text);
    feed.put('latest-linux.yml.sig', signManifest(Buffer.from(text), keys.privateKey));
    expect(await check()).toMatchObject({ reason: 'feed_not_manifest' });
    publishRelease(feed, keys, { version: 'one point two' });
    expect(await check()).toMatchObject({ reason: 'feed_not_manifest' });
    // A whole, valid manifest but for one byte that is not UTF-8 (a Latin-1 é in its notes).
    const { text: withNotes } = manifestFor({ version: '1.2.0', releaseNotes: 'Caf\xe9 fixes' });
    const latin1 = Buffer.from(withNotes, 'latin1');
    feed.put('latest-linux.yml', latin1);
    feed.put('latest-linux.yml.sig', signManifest(latin1, keys.privateKey));
    expect(await check()).toMatchObject({ reason: 'feed_not_manifest' });
    const utf8 = Buffer.from(withNotes, 'utf8');
    feed.put('latest-linux.yml', utf8);
    feed.put('latest-linux.yml.sig', signManifest(utf8, keys.privateKey));
    expect(await check({ downloadDir: null })).toMatchObject({ available: true });
  });
});

describe('refused before any request', () => {
  it('a feed that is neither https nor this computer, or not an address', async () => {
    for (const address of ['http://updates.reportdesk.invalid/', 'ftp://127.0.0.1/', 'file:///tmp/feed/']) {
      expect(await check({ feed: address }), address).toMatchObject({
        reason: 'insecure_feed',
        outcome: 'usage',
      });
    }
    expect(await check({ feed: 'updates' })).toMatchObject({ reason: 'not_a_url', outcome: 'usage' });
    expect(await check({ feed: feed.url.replace('http://', 'http://user:pw@') })).toMatchObject({
      reason: 'insecure_feed',
      outcome: 'usage',
    });
    expect(feed.requests).toEqual([]);
  });

  it('a current version that is not semver', async () => {
    expect(await check({ currentVersion: 'latest' })).toMatchObject({
      reason: 'invalid_version',
      outcome: 'usage',
    });
    expect(feed.requests).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('channels and staged rollouts, as electron-updater decides them', () => {
  it('the beta channel reads beta-linux.yml; latest does not see the beta', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    publishRelease(feed, keys, { version: '1.3.0-beta.1', channel: 'beta' });
    expect(await check({ channel: 'beta', downloadDir: null })).toMatchObject({
      available: true,
      version: '1.3.0-beta.1',
    });
    expect(await check({ downloadDir: null })).toMatchObject({ available: true, version: '1.2.0' });
    expect(asked()).toEqual([
      'beta-linux.yml',
      'beta-linux.yml.sig',
      'latest-linux.yml',
      'latest-linux.yml.sig',
    ]);
  });

  it('stagingPercentage 0 holds a release back from every install, 100 from none', async () => {
    publishRelease(feed, keys, { version: '1.2.0', stagingPercentage: 0 });
    expect(await check({ downloadDir: null })).toMatchObject({
      available: false,
      version: '1.2.0',
      verified: true,
      reason: 'staged_rollout',
      outcome: 'checked',
    });
    publishRelease(feed, keys, { version: '1.2.0', stagingPercentage: 100 });
    expect(await check({ downloadDir: null })).toMatchObject({ available: true, version: '1.2.0' });
  });
});

describe('what the requests carry', () => {
  it('no Authorization, cookie or per-install id, even when asked to add an auth header', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    const { DownloadOnlyUpdater, useSignedFeed } = await import('../../electron/core/updates/updaters');
    const work = await mkdtemp(join(tmpdir(), 'reportdesk-update-work-'));
    try {
      const config = join(work, 'app-update.yml');
      await writeFile(config, 'updaterCacheDirName: t\n');
      const updater = new DownloadOnlyUpdater(
        {
          version: '1.0.0',
          name: 'ReportDesk',
          isPackaged: true,
          appUpdateConfigPath: config,
          userDataPath: work,
          baseCachePath: work,
          whenReady: () => Promise.resolve(),
          relaunch: () => undefined,
          quit: () => undefined,
          onQuit: () => undefined,
        },
        () => false,
      );
      useSignedFeed(updater, {
        feedUrl: feed.url,
        channel: 'latest',
        publicKeys: [keys.publicKey],
        logger: silentLogger,
      });
      // electron-updater's own ways to add credentials: requestHeaders and addAuthHeader.
      updater.addAuthHeader('Bearer rd-live-secret-key');
      // An undefined value among them would make Node refuse the request, were it sent.
      updater.requestHeaders = {
        ...updater.requestHeaders,
        Cookie: 'session=1',
        'X-Api-Key': 'k',
        accept: undefined,
      };
      const result = await updater.checkForUpdates();
      expect(result?.isUpdateAvailable).toBe(true);
      await updater.downloadUpdate();
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    expect(asked()).toEqual(['latest-linux.yml', 'latest-linux.yml.sig', fileName]);
    for (const request of feed.requests) {
      // The download's Accept was set to undefined above: left out, not sent as "undefined".
      const accept = request.path.endsWith('.AppImage') ? [] : ['accept'];
      expect(Object.keys(request.headers).sort(), request.path).toEqual(
        [...accept, 'cache-control', 'connection', 'host', 'user-agent'].sort(),
      );
      expect(JSON.stringify(request.headers)).not.toMatch(/secret|session=|Bearer|undefined/);
    }
  });

  it('a redirect within this computer is followed; too many redirects are not', async () => {
    const { manifest } = publishRelease(feed, keys, { version: '1.2.0' });
    feed.put('/moved/latest-linux.yml', manifest);
    feed.put('latest-linux.yml', {
      status: 301,
      headers: { Location: `${feed.origin}/moved/latest-linux.yml` },
      body: '',
    });
    expect(await check({ downloadDir: null })).toMatchObject({ available: true, version: '1.2.0' });
    feed.put('latest-linux.yml', {
      status: 302,
      headers: { Location: `${feed.url}latest-linux.yml` },
      body: '',
    });
    expect(await check({ downloadDir: null })).toMatchObject({ reason: 'feed_unreachable' });
  });
});

describe("over Electron's net (a stand-in that behaves as its documentation says)", () => {
  const session = { partition: 'electron-updater' };
  let net: FakeElectronNet;
  beforeEach(() => {
    net = fakeElectronNet();
  });
  const viaElectron = (options: Partial<UpdateCheckOptions> = {}) =>
    check({ transport: electronNetTransport(net, () => session), ...options });

  it('finds, downloads and verifies, every request in electron-updater’s session with manual redirects', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    expect(await viaElectron()).toMatchObject({ available: true, downloaded: true, verified: true });
    expect(await readdir(dir)).toEqual([fileName]);
    expect(net.requests.map((request) => request.path?.split('?')[0])).toEqual([
      '/updates/latest-linux.yml',
      '/updates/latest-linux.yml.sig',
      `/updates/${fileName}`,
    ]);
    for (const request of net.requests) {
      expect(request.session).toBe(session);
      expect(request.redirect).toBe('manual');
      expect(Object.keys(request.headers ?? {}).map((name) => name.toLowerCase())).not.toContain(
        'authorization',
      );
    }
  });

  it('follows a redirect within this computer through the executor, and refuses one to plain http', async () => {
    const { manifest, fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    feed.put('/moved/latest-linux.yml', manifest);
    feed.put('latest-linux.yml', { status: 307, headers: { Location: '/moved/latest-linux.yml' }, body: '' });
    expect(await viaElectron({ downloadDir: null })).toMatchObject({ available: true, version: '1.2.0' });
    feed.put(fileName, {
      status: 302,
      headers: { Location: 'http://cdn.reportdesk.invalid/x.AppImage' },
      body: '',
    });
    expect(await viaElectron()).toMatchObject({ reason: 'insecure_feed', downloaded: false });
    expect(net.requests.map((request) => request.hostname)).not.toContain('cdn.reportdesk.invalid');
    expect(await readdir(dir)).toEqual([]);
  });

  it('stops after ten redirects', async () => {
    feed.put('latest-linux.yml', {
      status: 302,
      headers: { Location: `${feed.url}latest-linux.yml` },
      body: '',
    });
    const lines = memorySink();
    expect(
      await viaElectron({ downloadDir: null, logger: createLogger('update-check', lines) }),
    ).toMatchObject({
      reason: 'feed_unreachable',
    });
    expect(feed.asked('latest-linux.yml')).toHaveLength(12);
    expect(lines.lines.join('\n')).toContain('Too many redirects (> 10)');
  });
});

describe('a feed that never answers', () => {
  it('is given up after FEED_REQUEST_TIMEOUT_MS, even where no socket time-out applies (Electron)', async () => {
    feed.put('latest-linux.yml', { body: 'version: 1.2.0\n', hangAfter: 5 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const lines = memorySink();
      const checked = check({
        transport: electronNetTransport(fakeElectronNet(), () => ({})),
        downloadDir: null,
        logger: createLogger('update-check', lines),
      });
      await vi.waitFor(() => expect(feed.asked('latest-linux.yml')).toHaveLength(1), { interval: 5 });
      await new Promise((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(FEED_REQUEST_TIMEOUT_MS - 1);
      await new Promise((resolve) => setImmediate(resolve));
      let settled = false;
      void checked.then(() => (settled = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      vi.advanceTimersByTime(1);
      expect(await checked).toMatchObject({ reason: 'feed_unreachable', outcome: 'feed' });
      expect(lines.lines.join('\n')).toContain('Request timed out');
      // The request given up on is closed, not left hanging.
      await vi.waitFor(() => expect(feed.abandoned).toEqual(['/updates/latest-linux.yml']), { interval: 5 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('what a feed may answer', () => {
  const withoutManifest = async (status: number) => {
    feed.put('latest-linux.yml', { status, body: 'x' });
    return (await check({ downloadDir: null })).reason;
  };

  it('4xx is a missing manifest, 5xx and other statuses a feed that is down', async () => {
    expect(await withoutManifest(400)).toBe('feed_not_found');
    expect(await withoutManifest(403)).toBe('feed_not_found');
    expect(await withoutManifest(499)).toBe('feed_not_found');
    expect(await withoutManifest(500)).toBe('feed_unreachable');
    expect(await withoutManifest(300)).toBe('feed_unreachable');
    expect(await withoutManifest(199 + 1)).toBe('signature_missing');
  });

  it('a .sig that is forbidden (as object stores answer for a missing key) is missing; a 5xx is a feed that is down', async () => {
    const { manifestPath } = publishRelease(feed, keys, { version: '1.2.0' });
    for (const [status, reason] of [
      [403, 'signature_missing'],
      [404, 'signature_missing'],
      [500, 'feed_unreachable'],
      [302, 'feed_unreachable'],
    ] as const) {
      feed.put(`${manifestPath}.sig`, { status, body: '' });
      expect((await check({ downloadDir: null })).reason, String(status)).toBe(reason);
    }
  });

  it('a redirect is a 3xx with a Location: a 300 with one is followed, a 404 with one is not', async () => {
    const { manifest } = publishRelease(feed, keys, { version: '1.2.0' });
    feed.put('/elsewhere/latest-linux.yml', manifest);
    feed.put('latest-linux.yml', {
      status: 300,
      headers: { Location: '/elsewhere/latest-linux.yml' },
      body: '',
    });
    expect(await check({ downloadDir: null })).toMatchObject({ available: true });
    feed.put('latest-linux.yml', {
      status: 404,
      headers: { Location: '/elsewhere/latest-linux.yml' },
      body: '',
    });
    expect(await check({ downloadDir: null })).toMatchObject({ reason: 'feed_not_found' });
  });

  it('ten redirects are followed over Node, and no more', async () => {
    feed.put('latest-linux.yml', {
      status: 302,
      headers: { Location: `${feed.url}latest-linux.yml` },
      body: '',
    });
    expect(await check({ downloadDir: null })).toMatchObject({ reason: 'feed_unreachable' });
    expect(feed.asked('latest-linux.yml')).toHaveLength(11);
  });

  it('a connection dropped halfway through the manifest is a feed that is down, at once', async () => {
    const { manifest } = publishRelease(feed, keys, { version: '1.2.0' });
    feed.put('latest-linux.yml', {
      body: manifest,
      dropAfter: 10,
      headers: { 'Content-Length': String(Buffer.byteLength(manifest)) },
    });
    const started = Date.now();
    expect(await check({ downloadDir: null })).toMatchObject({ reason: 'feed_unreachable' });
    expect(Date.now() - started).toBeLessThan(FEED_REQUEST_TIMEOUT_MS / 2);
  });

  it('a feed address without a trailing slash is a folder all the same', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    expect(await check({ feed: feed.url.replace(/\/$/, ''), downloadDir: null })).toMatchObject({
      available: true,
    });
  });

  it('asks past caches with a noCache query, or with the feed address’s own query when it has one', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    await check({ downloadDir: null });
    for (const request of feed.requests) expect(request.url).toMatch(/\?noCache=[0-9a-v]+$/);
    feed.requests.length = 0;
    await check({ feed: `${feed.url}?edition=desktop` });
    expect(feed.requests.map((request) => request.url.replace('/updates/', ''))).toEqual([
      'latest-linux.yml?edition=desktop',
      'latest-linux.yml.sig?edition=desktop',
      `${fileName}?edition=desktop`,
    ]);
  });

  it('only downloads when asked to: a check alone never fetches the installer', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    await check({ downloadDir: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(feed.asked(fileName)).toEqual([]);
  });
});

describe('signed manifests that are still not usable', () => {
  const signedText = (text: string) => {
    feed.put('latest-linux.yml', text);
    feed.put('latest-linux.yml.sig', signManifest(Buffer.from(text), keys.privateKey));
  };
  const sha512 = `${'A'.repeat(86)}==`;

  it.each([
    ['an empty one', ''],
    ['one without files', 'version: 1.2.0\nfiles: []\n'],
    [
      'one whose files are not a list',
      `version: 1.2.0\nfiles:\n  a: { url: a.AppImage, sha512: ${sha512} }\n`,
    ],
    ['one with an empty file entry', 'version: 1.2.0\nfiles:\n  - null\n'],
    ['one whose file has no address', `version: 1.2.0\nfiles:\n  - sha512: ${sha512}\n`],
    ['one whose file has a short sha512', 'version: 1.2.0\nfiles:\n  - url: a.AppImage\n    sha512: abc==\n'],
    [
      'one whose sha512 has more before it',
      `version: 1.2.0\nfiles:\n  - url: a.AppImage\n    sha512: x${sha512}\n`,
    ],
    [
      'one whose sha512 has more after it',
      `version: 1.2.0\nfiles:\n  - url: a.AppImage\n    sha512: ${sha512}x\n`,
    ],
    [
      'one whose package has no sha512',
      `version: 1.2.0\nfiles:\n  - url: a.exe\n    sha512: ${sha512}\npackages:\n  x64:\n    path: p.7z\n`,
    ],
  ])('%s is not a manifest', async (_what, text) => {
    signedText(text);
    // Refused at the check, before electron-updater reads a version from it.
    expect(await check()).toMatchObject({
      available: false,
      version: null,
      reason: 'feed_not_manifest',
      verified: false,
      downloaded: false,
    });
  });

  it.each([
    ['a file', `version: 1.2.0\nfiles:\n  - url: 'http://[bad'\n    sha512: ${sha512}\n`],
    [
      'a package',
      `version: 1.2.0\nfiles:\n  - url: a.exe\n    sha512: ${sha512}\npackages:\n  x64:\n    path: http://pkg.reportdesk.invalid/p.7z\n    sha512: ${sha512}\n`,
    ],
  ])('%s at an address that cannot be used is refused before any download', async (_what, text) => {
    signedText(text);
    expect(await check()).toMatchObject({ reason: 'insecure_feed', downloaded: false });
    expect(await readdir(dir)).toEqual([]);
  });

  it('a release with no file this platform installs (only a .deb, for an AppImage) is refused at download', async () => {
    publishRelease(feed, keys, {
      version: '1.2.0',
      manifest: { files: [{ url: 'report-desk_1.2.0_amd64.deb', sha512 }] },
    });
    expect(await check()).toMatchObject({ version: '1.2.0', reason: 'feed_not_manifest', downloaded: false });
  });

  it('a newer version for a newer operating system is not offered, and says why', async () => {
    publishRelease(feed, keys, { version: '1.2.0', manifest: { minimumSystemVersion: '999.0.0' } });
    expect(await check()).toMatchObject({
      available: false,
      version: '1.2.0',
      reason: 'unsupported_system',
      outcome: 'checked',
    });
  });

  it('a download dropped halfway is a failed download: nothing kept, exit as a feed that cannot be read', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    const content = manifestFor({ version: '1.2.0' }).content;
    feed.put(fileName, {
      body: content,
      dropAfter: 100,
      headers: { 'Content-Length': String(content.length) },
    });
    expect(await check()).toMatchObject({ reason: 'download_failed', outcome: 'feed', downloaded: false });
    expect(await readdir(dir)).toEqual([]);
  });

  it('a newer version held back by its rollout says so; the same version with a rollout is just up to date', async () => {
    publishRelease(feed, keys, { version: '1.0.0', stagingPercentage: 0 });
    expect(await check({ downloadDir: null })).toMatchObject({ reason: 'up_to_date' });
  });
});

describe('the updater’s own log', () => {
  it('goes to our logger: what it found, where it downloaded, what it refused', async () => {
    const lines = memorySink();
    const logger = createLogger('update-check', lines, 'debug');
    publishRelease(feed, keys, { version: '1.2.0' });
    await check({ logger });
    const text = lines.lines.join('\n');
    expect(text).toMatch(/INFO \[update-check\] Found version 1\.2\.0/);
    // electron-updater works in a folder of the check's own inside DIR, which is gone after.
    const escaped = dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(text).toMatch(
      new RegExp(
        `DEBUG \\[update-check\\] updater cache dir: ${escaped}/\\.reportdesk-update-check-[^/]+/update-check$`,
        'm',
      ),
    );
    expect(text).toMatch(
      /INFO \[update-check\] New version 1\.2\.0 has been downloaded to .*update-check\/pending\//,
    );
    lines.lines.length = 0;
    publishRelease(feed, makeReleaseKeys(), { version: '1.2.0' });
    await check({ logger });
    expect(lines.lines.join('\n')).toMatch(
      /ERROR \[update-check\] Error: UpdateFailure: update refused: signature_invalid/,
    );
    lines.lines.length = 0;
    const { fileName } = publishRelease(feed, keys, { version: '1.3.0' });
    feed.put(fileName, 'tampered');
    await check({ logger });
    expect(lines.lines.join('\n')).toMatch(
      /WARN \[update-check\] sha512 checksum mismatch after full download/,
    );
  });
});

describe('over https', () => {
  let certDir: string;
  let tlsFiles: { key: string; cert: string };
  const defaultCertificates = getCACertificates('default');
  beforeAll(() => {
    // A certificate for 127.0.0.1 made for this run; the process trusts it only while this runs.
    certDir = mkdtempSync(join(tmpdir(), 'reportdesk-feed-tls-'));
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(certDir, 'key.pem'),
      '-out',
      join(certDir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]);
    expect(made.status, made.stderr?.toString()).toBe(0);
    tlsFiles = {
      key: readFileSync(join(certDir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(certDir, 'cert.pem'), 'utf8'),
    };
  });
  afterAll(() => {
    setDefaultCACertificates(defaultCertificates);
    rmSync(certDir, { recursive: true, force: true });
  });

  it('checks, downloads and verifies from an https feed; one with a certificate nobody trusts cannot be read', async () => {
    const secure = await startUpdateFeed({ tls: tlsFiles });
    try {
      const { fileName } = publishRelease(secure, keys, { version: '1.2.0' });
      setDefaultCACertificates(defaultCertificates);
      expect(await check({ feed: secure.url })).toMatchObject({
        reason: 'feed_unreachable',
        outcome: 'feed',
      });
      setDefaultCACertificates([...defaultCertificates, tlsFiles.cert]);
      expect(await check({ feed: secure.url })).toMatchObject({
        available: true,
        downloaded: true,
        verified: true,
      });
      expect(await readdir(dir)).toEqual([fileName]);
    } finally {
      await secure.stop();
    }
  });
});

describe('the request door, directly', () => {
  it('passes Range (differential downloads) and drops everything else a caller adds', async () => {
    feed.put('x.bin', 'abcdefghij');
    const executor = new FeedHttpExecutor();
    const url = new URL(`${feed.url}x.bin`);
    const body = await executor.request({
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port,
      path: url.pathname,
      headers: {
        Range: 'bytes=0-3',
        Authorization: 'Bearer k',
        'X-User-Staging-Id': 'id',
        Accept: 'text/plain',
      },
    });
    expect(body).toBe('abcdefghij');
    expect(feed.requests.at(-1)?.headers).toMatchObject({ range: 'bytes=0-3', accept: 'text/plain' });
    expect(Object.keys(feed.requests.at(-1)!.headers)).not.toContain('authorization');
    expect(Object.keys(feed.requests.at(-1)!.headers)).not.toContain('x-user-staging-id');
  });

  it('asks manifests and downloads with Accept: */*', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    await check();
    expect(feed.requests.map((request) => [request.path, request.headers.accept])).toEqual([
      ['/updates/latest-linux.yml', '*/*'],
      ['/updates/latest-linux.yml.sig', '*/*'],
      [`/updates/${fileName}`, '*/*'],
    ]);
  });

  it('takes the body of a 2xx even with a Location header, and does not follow a 400 with one', async () => {
    const { manifest } = publishRelease(feed, keys, { version: '1.2.0' });
    const other = publishRelease(feed, keys, { version: '1.3.0', channel: 'other' }).manifest;
    feed.put('/elsewhere/latest-linux.yml', other);
    feed.put('latest-linux.yml', {
      status: 200,
      headers: { Location: '/elsewhere/latest-linux.yml' },
      body: manifest,
    });
    expect(await check({ downloadDir: null })).toMatchObject({ available: true, version: '1.2.0' });
    feed.put('latest-linux.yml', {
      status: 400,
      headers: { Location: '/elsewhere/latest-linux.yml' },
      body: '',
    });
    expect(await check({ downloadDir: null })).toMatchObject({ reason: 'feed_not_found' });
  });

  it('an HTML page known by its type alone is not a manifest', async () => {
    feed.put('latest-linux.yml', { contentType: 'text/html', body: 'Sorry, this page has moved.' });
    expect(await check({ downloadDir: null })).toMatchObject({ reason: 'feed_not_manifest' });
    expect(feed.asked('latest-linux.yml.sig')).toEqual([]);
  });

  it('a manifest of exactly the largest size is read; one byte more is not', async () => {
    const { manifest } = publishRelease(feed, keys, { version: '1.2.0' });
    const padding = MAX_MANIFEST_BYTES - Buffer.byteLength(manifest) - 2;
    const largest = `${manifest}#${'x'.repeat(padding)}\n`;
    expect(Buffer.byteLength(largest)).toBe(MAX_MANIFEST_BYTES);
    feed.put('latest-linux.yml', largest);
    feed.put('latest-linux.yml.sig', signManifest(Buffer.from(largest), keys.privateKey));
    expect(await check({ downloadDir: null })).toMatchObject({ available: true });
    const tooLarge = `${manifest}#${'x'.repeat(padding + 1)}\n`;
    feed.put('latest-linux.yml', tooLarge);
    feed.put('latest-linux.yml.sig', signManifest(Buffer.from(tooLarge), keys.privateKey));
    expect(await check({ downloadDir: null })).toMatchObject({ reason: 'feed_not_manifest' });
  });
});
