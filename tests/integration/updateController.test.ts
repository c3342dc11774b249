/**
 * The installed app's updates (createAppUpdates → UpdateController) over electron-updater's
 * real BaseUpdater (DownloadOnlyUpdater: the real check, download and sha512 check; the install
 * is recorded, as only an installed app can do it) against a feed on 127.0.0.1. The clock is
 * a manual timer queue, so "10 s after start" and "every 6 hours" are the delays asked for.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunningWork, UpdateStatus } from '../../shared/contract';
import { createLogger, memorySink, silentLogger } from '../../electron/core/log';
import { createAppUpdates, type AppUpdatesOptions } from '../../electron/core/updates/appUpdates';
import {
  CHECK_INTERVAL_MS,
  DOWNLOAD_LIMIT_MS,
  FIRST_CHECK_DELAY_MS,
  RESTART_POLL_MS,
} from '../../electron/core/updates/updateController';
import type { Timers } from '../../electron/core/timers';
import { STAGING_ID_FILE, UPDATE_SETTINGS_FILE } from '../../electron/core/updates/updateSettings';
import type { UpdatesService } from '../../electron/core/updates/updatesService';
import { DownloadOnlyUpdater } from '../../electron/core/updates/updaters';
import {
  makeReleaseKeys,
  manifestFor,
  publishRelease,
  startUpdateFeed,
  type ReleaseKeys,
  type UpdateFeed,
} from '../helpers/updateFeed';

/** setTimeout as a list the test runs by hand. */
class ManualTimers implements Timers {
  private next = 1;
  pending: { id: number; ms: number; run: () => void }[] = [];
  setTimeout(run: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.push({ id, ms, run });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((timer) => timer.id !== handle);
  }
  delays(): number[] {
    return this.pending.map((timer) => timer.ms);
  }
  /** Runs the (one) timer due after `ms`. */
  fire(ms: number): void {
    const timer = this.pending.find((candidate) => candidate.ms === ms);
    if (!timer) throw new Error(`no timer of ${ms} ms (pending: ${this.delays().join(', ')})`);
    this.clearTimeout(timer.id);
    timer.run();
  }
}

let feed: UpdateFeed;
let keys: ReleaseKeys;
let root: string;
let dataDir: string;
let resources: string;
let timers: ManualTimers;
let events: UpdateStatus[];
let installs: string[];
let installedHow: { isSilent: boolean; isForceRunAfter: boolean }[];
let updater: DownloadOnlyUpdater | null;
let quits: number;
let running: RunningWork[];
let cancels: number;
let service: UpdatesService | null;

beforeEach(async () => {
  feed = await startUpdateFeed();
  keys = makeReleaseKeys();
  root = mkdtempSync(join(tmpdir(), 'reportdesk-updates-'));
  dataDir = join(root, 'data');
  resources = join(root, 'resources');
  mkdirSync(dataDir);
  mkdirSync(resources);
  // What electron-builder writes for `publish: { provider: generic, url }`.
  writeFileSync(
    join(resources, 'app-update.yml'),
    `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: report-desk-updater\n`,
  );
  timers = new ManualTimers();
  events = [];
  installs = [];
  installedHow = [];
  updater = null;
  quits = 0;
  running = [];
  cancels = 0;
  installWorks = true;
  service = null;
});

afterEach(async () => {
  service?.close();
  await feed.stop();
  rmSync(root, { recursive: true, force: true });
});

let installWorks = true;

function start(overrides: Partial<AppUpdatesOptions> = {}): UpdatesService {
  service = createAppUpdates({
    dataDir,
    adapter: {
      version: '1.0.0',
      name: 'ReportDesk',
      isPackaged: true,
      appUpdateConfigPath: join(resources, 'app-update.yml'),
      userDataPath: dataDir,
      baseCachePath: join(root, 'cache'),
      whenReady: () => Promise.resolve(),
      relaunch: () => undefined,
      quit: () => void quits++,
      onQuit: () => undefined,
    },
    platform: 'linux',
    resourcesPath: resources,
    appImage: '/opt/ReportDesk/ReportDesk.AppImage',
    transport: undefined as never,
    publicKeys: [keys.publicPem],
    createUpdater: (_kind, adapter) =>
      (updater = new DownloadOnlyUpdater(adapter, (file, how) => {
        installs.push(file);
        installedHow.push(how);
        return installWorks;
      })),
    work: { running: () => running, cancel: () => void cancels++ },
    onChange: (status) => events.push(status),
    logger: silentLogger,
    timers,
    now: () => new Date('2026-11-25T12:00:00.000Z'),
    ...overrides,
  });
  return service;
}

const phases = () => events.map((status) => status.phase);
const settingsOnDisk = () => JSON.parse(readFileSync(join(dataDir, UPDATE_SETTINGS_FILE), 'utf8')) as unknown;

/** Runs the automatic check that is due and waits until it has settled. */
async function fireCheck(ms: number): Promise<void> {
  const before = events.length;
  timers.fire(ms);
  // The timer started a check (it says "checking" before its first request)…
  expect(events.length).toBeGreaterThan(before);
  // …and a check asked for while one runs is that same check: this waits for the timer's.
  await service!.check();
}

describe('which installs update themselves', () => {
  it('not a development run, nor a package the distribution updates, nor a build without a feed', () => {
    const lines = memorySink();
    const logger = createLogger('main', lines);
    const adapter = (packaged: boolean) => ({
      version: '1.0.0',
      name: 'ReportDesk',
      isPackaged: packaged,
      appUpdateConfigPath: '',
      userDataPath: dataDir,
      baseCachePath: root,
      whenReady: () => Promise.resolve(),
      relaunch: () => undefined,
      quit: () => undefined,
      onQuit: () => undefined,
    });
    expect(start({ adapter: adapter(false) }).status()).toMatchObject({
      managed: false,
      unmanagedReason: 'development',
      currentVersion: '1.0.0',
    });
    expect(start({ appImage: undefined, logger }).status().unmanagedReason).toBe('unsupported_package');
    writeFileSync(join(resources, 'package-type'), 'pacman\n');
    expect(start({ logger }).status().unmanagedReason).toBe('unsupported_package');
    expect(lines.lines.filter((line) => line.includes('This install does not update itself'))).toEqual([
      expect.stringMatching(/INFO \[main\] .* \{"platform":"linux","package":null\}$/),
      expect.stringMatching(/INFO \[main\] .* \{"platform":"linux","package":"pacman"\}$/),
    ]);
    writeFileSync(join(resources, 'package-type'), 'deb\n');
    expect(start().status()).toMatchObject({ managed: true, install: 'asks-admin' });
    service?.close();
    rmSync(join(resources, 'package-type'));
    for (const config of [
      'provider: github\nowner: x\n',
      'provider: github\nurl: https://updates.example.org/rd\n',
      'provider: generic\nurl: http://updates.reportdesk.invalid/\n',
      'provider: generic\n',
      ': not yaml :\n  - [',
    ]) {
      writeFileSync(join(resources, 'app-update.yml'), config);
      expect(start({ logger }).status().unmanagedReason, config).toBe('no_feed');
    }
    rmSync(join(resources, 'app-update.yml'));
    expect(start({ logger }).status().unmanagedReason).toBe('no_feed');
    const warned = lines.lines.filter((line) => line.includes(' WARN '));
    expect(warned).toHaveLength(6);
    const configFile = join(resources, 'app-update.yml');
    for (const line of warned.slice(0, 4)) {
      expect(line).toMatch(
        /WARN \[main\] The update feed of this build is not a generic https feed; updates are off/,
      );
      expect(line).toContain(`{"file":"${configFile}"}`);
    }
    expect(warned[4]).toMatch(/No update feed is configured for this build .*"error":/);
    expect(warned[5]).toMatch(/No update feed is configured for this build .*ENOENT/);
    // None of them schedules a check, or writes anything to the data dir.
    expect(timers.pending).toEqual([]);
    expect(feed.requests).toEqual([]);
  });

  it('an AppImage installs on quit; its staging id is made in the data dir', () => {
    expect(start().status()).toMatchObject({
      managed: true,
      unmanagedReason: null,
      currentVersion: '1.0.0',
      preferences: { automatic: true, channel: 'latest' },
      lastCheckedAt: null,
      phase: 'idle',
      install: 'on-quit',
    });
    expect(readFileSync(join(dataDir, STAGING_ID_FILE), 'utf8')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('automatic checks', () => {
  it('check 10 s after start, download in the background, then every 6 hours', async () => {
    const { fileName } = publishRelease(feed, keys, {
      version: '1.2.0',
      releaseNotes: 'Faster lists.\nFixes.',
    });
    start();
    expect(timers.delays()).toEqual([FIRST_CHECK_DELAY_MS]);
    expect(feed.requests).toEqual([]);
    await fireCheck(FIRST_CHECK_DELAY_MS);
    expect(phases()).toEqual(['checking', 'downloading', 'ready']);
    expect(service!.status()).toMatchObject({
      phase: 'ready',
      update: {
        version: '1.2.0',
        releaseDate: '2026-11-20T10:00:00.000Z',
        releaseNotes: 'Faster lists.\nFixes.',
      },
      downloadPercent: null,
      failure: null,
      lastCheckedAt: '2026-11-25T12:00:00.000Z',
    });
    expect(events[1]).toMatchObject({
      phase: 'downloading',
      update: { version: '1.2.0' },
      downloadPercent: 0,
    });
    expect(feed.asked(fileName)).toHaveLength(1);
    expect(settingsOnDisk()).toEqual({
      version: 1,
      automatic: true,
      channel: 'latest',
      lastCheckedAt: '2026-11-25T12:00:00.000Z',
    });
    expect(timers.delays()).toEqual([CHECK_INTERVAL_MS]);
    // Never restarts by itself, and installs nothing until asked or quitting.
    expect(installs).toEqual([]);
    expect(quits).toBe(0);
    // The next check finds the same version: it stays ready, nothing is downloaded again.
    await fireCheck(CHECK_INTERVAL_MS);
    expect(service!.status().phase).toBe('ready');
    expect(feed.asked(fileName)).toHaveLength(1);
    expect(timers.delays()).toEqual([CHECK_INTERVAL_MS]);
  });

  it('are off when turned off (kept in the settings file), and come back 10 s after turning them on', async () => {
    start();
    let status = service!.setPreferences({ automatic: false });
    expect(status.preferences).toEqual({ automatic: false, channel: 'latest' });
    expect(timers.pending).toEqual([]);
    expect(events.at(-1)?.preferences.automatic).toBe(false);
    service!.close();
    events = [];
    start();
    expect(service!.status().preferences.automatic).toBe(false);
    expect(timers.pending).toEqual([]);
    status = service!.setPreferences({ automatic: true });
    expect(status.preferences.automatic).toBe(true);
    expect(timers.delays()).toEqual([FIRST_CHECK_DELAY_MS]);
    // Saying it again does not move the check.
    service!.setPreferences({ automatic: true });
    expect(timers.delays()).toEqual([FIRST_CHECK_DELAY_MS]);
  });

  it('"Check now" works with automatic checks off, and schedules none', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    start();
    service!.setPreferences({ automatic: false });
    const status = await service!.check();
    expect(status).toMatchObject({ phase: 'ready', update: { version: '1.2.0' } });
    expect(timers.pending).toEqual([]);
  });

  it('two checks at once are one check', async () => {
    publishRelease(feed, keys, { version: '1.0.0' });
    start();
    const [a, b] = await Promise.all([service!.check(), service!.check()]);
    expect(a).toEqual(b);
    expect(feed.asked('latest-linux.yml')).toHaveLength(1);
  });
});

describe('failures: a reason for Settings, a log line, and another try at the next interval', () => {
  it('a feed that answers 404, then works again', async () => {
    const lines = memorySink();
    start({ logger: createLogger('main', lines) });
    await fireCheck(FIRST_CHECK_DELAY_MS);
    expect(service!.status()).toMatchObject({
      phase: 'idle',
      failure: 'feed_not_found',
      lastCheckedAt: null,
    });
    expect(lines.lines.join('\n')).toMatch(/could not be checked or downloaded.*"reason":"feed_not_found"/);
    expect(timers.delays()).toEqual([CHECK_INTERVAL_MS]);
    publishRelease(feed, keys, { version: '1.0.0' });
    await fireCheck(CHECK_INTERVAL_MS);
    expect(service!.status()).toMatchObject({ phase: 'idle', failure: null, update: null });
  });

  it('a manifest signed by another key: refused, nothing downloaded', async () => {
    const { fileName } = publishRelease(feed, makeReleaseKeys(), { version: '1.2.0' });
    start();
    await fireCheck(FIRST_CHECK_DELAY_MS);
    expect(service!.status()).toMatchObject({ phase: 'idle', failure: 'signature_invalid', update: null });
    expect(feed.asked(fileName)).toEqual([]);
  });

  it('a tampered download: refused, and a ready update is not kept from an earlier try', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    feed.put(fileName, Buffer.from('tampered'));
    start();
    await fireCheck(FIRST_CHECK_DELAY_MS);
    expect(service!.status()).toMatchObject({ phase: 'idle', failure: 'checksum_mismatch', update: null });
    // Quitting installs nothing.
    service!.beforeQuit();
    expect(installs).toEqual([]);
  });

  it('a download that stalls is cancelled after the limit, leaving nothing to install', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    const content = manifestFor({ version: '1.2.0' }).content;
    feed.put(fileName, {
      body: content,
      hangAfter: 100,
      headers: { 'Content-Length': String(content.length) },
    });
    start();
    const checked = service!.check();
    await vi.waitFor(() => expect(service!.status().phase).toBe('downloading'));
    await vi.waitFor(() => expect(feed.asked(fileName)).toHaveLength(1));
    expect(timers.delays()).toContain(DOWNLOAD_LIMIT_MS);
    timers.fire(DOWNLOAD_LIMIT_MS);
    expect(await checked).toMatchObject({ phase: 'idle', failure: 'download_failed', update: null });
    service!.beforeQuit();
    expect(installs).toEqual([]);
  });

  it('a failed check keeps an update already downloaded', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    start();
    await fireCheck(FIRST_CHECK_DELAY_MS);
    feed.put('latest-linux.yml', { status: 500, body: 'down' });
    await fireCheck(CHECK_INTERVAL_MS);
    expect(service!.status()).toMatchObject({
      phase: 'ready',
      failure: 'feed_unreachable',
      update: { version: '1.2.0' },
    });
  });
});

describe('a release pulled from the feed', () => {
  it('is dropped when the next check finds no newer version, and is not installed on quit', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    start();
    await fireCheck(FIRST_CHECK_DELAY_MS);
    expect(service!.status().phase).toBe('ready');
    publishRelease(feed, keys, { version: '1.0.0' });
    await service!.check();
    expect(service!.status()).toMatchObject({ phase: 'idle', update: null });
    service!.beforeQuit();
    expect(installs).toEqual([]);
  });
});

describe('channels and staged rollouts', () => {
  it('the beta channel reads beta-linux.yml from the next check on; back on latest, no downgrade', async () => {
    publishRelease(feed, keys, { version: '1.0.0' });
    publishRelease(feed, keys, { version: '1.1.0-beta.2', channel: 'beta' });
    start();
    const status = service!.setPreferences({ channel: 'beta' });
    expect(status.preferences.channel).toBe('beta');
    expect(timers.delays()).toEqual([FIRST_CHECK_DELAY_MS]);
    await fireCheck(FIRST_CHECK_DELAY_MS);
    expect(service!.status()).toMatchObject({ phase: 'ready', update: { version: '1.1.0-beta.2' } });
    expect(feed.asked('beta-linux.yml')).toHaveLength(1);
    service!.setPreferences({ channel: 'latest' });
    await service!.check();
    // latest offers 1.0.0, the version running: nothing to install, the beta is dropped.
    expect(service!.status()).toMatchObject({ phase: 'idle', update: null });
  });

  it("stagingPercentage is compared with this install's place: 50 % in, 40 % out", async () => {
    // electron-updater reads bytes 12–15 of the staging id: 0x80000000 / 0xffffffff ≈ 0.5.
    writeFileSync(join(dataDir, STAGING_ID_FILE), '2f0c4e1a-9b3d-4c5e-8a7f-1b2c80000000');
    publishRelease(feed, keys, { version: '1.2.0', stagingPercentage: 40 });
    start();
    await service!.check();
    expect(service!.status()).toMatchObject({ phase: 'idle', update: null, failure: null });
    publishRelease(feed, keys, { version: '1.2.0', stagingPercentage: 60 });
    await service!.check();
    expect(service!.status()).toMatchObject({ phase: 'ready', update: { version: '1.2.0' } });
  });
});

describe('restart', () => {
  async function ready(): Promise<void> {
    publishRelease(feed, keys, { version: '1.2.0' });
    start();
    await service!.check();
    expect(service!.status().phase).toBe('ready');
  }

  it('installs the downloaded file and quits at once when nothing runs', async () => {
    await ready();
    const status = service!.restart();
    expect(status.phase).toBe('installing');
    // Asked again while installing: nothing more happens.
    const seen = events.length;
    expect(service!.restart().phase).toBe('installing');
    expect(events).toHaveLength(seen);
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/ReportDesk-1\.2\.0\.AppImage$/);
    expect(quits).toBe(1);
    // The quit that follows does not install twice.
    service!.beforeQuit();
    expect(installs).toHaveLength(1);
  });

  it('waits while a sync or changes run, looking again every second, then restarts', async () => {
    await ready();
    running = ['sync', 'changes'];
    expect(service!.restart()).toMatchObject({ phase: 'ready', restartWaitingFor: ['sync', 'changes'] });
    expect(timers.delays()).toContain(RESTART_POLL_MS);
    running = ['changes'];
    timers.fire(RESTART_POLL_MS);
    expect(service!.status().restartWaitingFor).toEqual(['changes']);
    expect(installs).toEqual([]);
    running = [];
    timers.fire(RESTART_POLL_MS);
    expect(installs).toHaveLength(1);
    expect(service!.status()).toMatchObject({ phase: 'installing', restartWaitingFor: null });
    expect(cancels).toBe(0);
  });

  it('cancels the running sync and export first when asked', async () => {
    await ready();
    running = ['export'];
    service!.restart({ cancelWork: true });
    expect(cancels).toBe(1);
    expect(service!.status().restartWaitingFor).toEqual(['export']);
  });

  it('stops waiting when told; the update still installs on quit', async () => {
    await ready();
    running = ['sync'];
    service!.restart();
    const status = service!.cancelRestart();
    expect(status.restartWaitingFor).toBeNull();
    expect(timers.delays()).not.toContain(RESTART_POLL_MS);
    running = [];
    service!.beforeQuit();
    expect(installs).toHaveLength(1);
    expect(quits).toBe(0);
  });

  it('does nothing without a downloaded update', async () => {
    publishRelease(feed, keys, { version: '1.0.0' });
    start();
    expect(service!.restart()).toMatchObject({ phase: 'idle', restartWaitingFor: null });
    service!.beforeQuit();
    expect(installs).toEqual([]);
    expect(quits).toBe(0);
  });

  it('an install that fails is a reason for Settings; the update stays ready, and a second try can work', async () => {
    const lines = memorySink();
    publishRelease(feed, keys, { version: '1.2.0' });
    installWorks = false;
    start({ logger: createLogger('main', lines) });
    await service!.check();
    expect(service!.restart()).toMatchObject({ phase: 'ready', failure: 'install_failed' });
    expect(quits).toBe(0);
    expect(lines.lines.join('\n')).toMatch(
      /ERROR \[main\] The update could not be installed .*"error":"The update was not installed\."/,
    );
    installWorks = true;
    expect(service!.restart().phase).toBe('installing');
    expect(installs).toHaveLength(2);
    expect(quits).toBe(1);
  });

  it('deb and rpm: never installed on quit (it asks for the administrator), only on restart', async () => {
    writeFileSync(join(resources, 'package-type'), 'deb');
    publishRelease(feed, keys, { version: '1.2.0' });
    start();
    await service!.check();
    expect(service!.status()).toMatchObject({ phase: 'ready', install: 'asks-admin' });
    service!.beforeQuit();
    expect(installs).toEqual([]);
    service!.restart();
    expect(installs).toHaveLength(1);
  });
});

describe('release notes', () => {
  it('are text: control characters and terminal escapes go, markup is kept as written', async () => {
    publishRelease(feed, keys, {
      version: '1.2.0',
      releaseNotes: '<b>Bold</b> claim\x1b[31m red\x07\r\nLine two\u202e   \n\n',
    });
    start();
    await service!.check();
    expect(service!.status().update?.releaseNotes).toBe('<b>Bold</b> claim red\nLine two');
  });
});

describe('the numbers the issue sets', () => {
  it('10 s after start, every 6 hours; a restart looks again every second; a download gets 2 hours', () => {
    expect(FIRST_CHECK_DELAY_MS).toBe(10 * 1000);
    expect(CHECK_INTERVAL_MS).toBe(6 * 60 * 60 * 1000);
    expect(RESTART_POLL_MS).toBe(1000);
    expect(DOWNLOAD_LIMIT_MS).toBe(2 * 60 * 60 * 1000);
  });
});

describe('with the real clock and timers (the app’s defaults)', () => {
  it('schedules the first check with setTimeout, clears it when turned off, and stamps the check with the time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      vi.setSystemTime(new Date('2026-12-01T08:00:00.000Z'));
      publishRelease(feed, keys, { version: '1.0.0' });
      start({ timers: undefined, now: undefined });
      expect(vi.getTimerCount()).toBe(1);
      service!.setPreferences({ automatic: false });
      expect(vi.getTimerCount()).toBe(0);
      service!.setPreferences({ automatic: true });
      vi.advanceTimersByTime(FIRST_CHECK_DELAY_MS - 1);
      expect(feed.requests).toEqual([]);
      vi.advanceTimersByTime(1);
      const status = await service!.check();
      expect(feed.asked('latest-linux.yml')).toHaveLength(1);
      expect(status.lastCheckedAt).toBe('2026-12-01T08:00:10.000Z');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('more of what the controller promises', () => {
  it('reports the download’s progress, as electron-updater reports it', async () => {
    const { fileName } = publishRelease(feed, keys, { version: '1.2.0' });
    const content = manifestFor({ version: '1.2.0' }).content;
    feed.put(fileName, { body: content, headers: { 'Content-Length': String(content.length) } });
    start();
    await service!.check();
    expect(events.map((status) => [status.phase, status.downloadPercent])).toEqual([
      ['checking', null],
      ['downloading', 0],
      ['downloading', 100],
      ['ready', null],
    ]);
  });

  it('a check that finds the version already downloaded downloads nothing and says nothing about downloading', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    start();
    await service!.check();
    events = [];
    await service!.check();
    expect(events.map((status) => status.phase)).toEqual(['ready', 'ready']);
  });

  it('does nothing to restart or quit without a downloaded update: no event, no error', async () => {
    const lines = memorySink();
    publishRelease(feed, keys, { version: '1.0.0' });
    start({ logger: createLogger('main', lines) });
    await service!.check();
    const before = service!.status();
    events = [];
    expect(service!.restart()).toEqual(before);
    expect(service!.cancelRestart()).toEqual(before);
    service!.beforeQuit();
    expect(events).toEqual([]);
    expect(lines.lines.filter((line) => / (ERROR|WARN) /.test(line))).toEqual([]);
    expect([installs, quits]).toEqual([[], 0]);
  });

  it('installs silently on quit, and on restart starts the new version; says so in the log', async () => {
    const lines = memorySink();
    publishRelease(feed, keys, { version: '1.2.0' });
    start({ logger: createLogger('main', lines) });
    await service!.check();
    expect(lines.lines.join('\n')).toMatch(
      /INFO \[main\] An update is downloaded and verified \{"version":"1\.2\.0"\}/,
    );
    service!.beforeQuit();
    expect(installedHow).toEqual([{ isSilent: true, isForceRunAfter: false }]);
    expect(lines.lines.join('\n')).toMatch(
      /INFO \[main\] Installing the downloaded update as the app quits \{"version":"1\.2\.0"\}$/m,
    );
    service!.close();
    installs = [];
    installedHow = [];
    start();
    await service!.check();
    const listeners = updater!.listenerCount('error');
    service!.restart();
    expect(installedHow).toEqual([{ isSilent: false, isForceRunAfter: true }]);
    // The listener that catches a failed install is taken off again.
    expect(updater!.listenerCount('error')).toBe(listeners);
  });

  it('a check asked for while installing asks nothing', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    start();
    await service!.check();
    service!.restart();
    const asked = feed.requests.length;
    expect((await service!.check()).phase).toBe('installing');
    expect(feed.requests).toHaveLength(asked);
  });

  it('says in the log when the feed no longer offers the downloaded update', async () => {
    const lines = memorySink();
    publishRelease(feed, keys, { version: '1.2.0' });
    start({ logger: createLogger('main', lines) });
    await service!.check();
    publishRelease(feed, keys, { version: '1.0.0' });
    await service!.check();
    expect(lines.lines.join('\n')).toMatch(
      /INFO \[main\] The feed no longer offers the downloaded update \{"version":"1\.2\.0"\}/,
    );
  });

  it('a feed that is down is "unreachable", and the logged error is kept short', async () => {
    const lines = memorySink();
    await feed.stop();
    start({ logger: createLogger('main', lines) });
    expect((await service!.check()).failure).toBe('feed_unreachable');
    feed = await startUpdateFeed();
    writeFileSync(
      join(resources, 'app-update.yml'),
      `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: u\n`,
    );
    service!.close();
    // A signed text that is not YAML: electron-updater's error quotes all of it.
    const text = `version: [${'x'.repeat(3000)}`;
    feed.put('latest-linux.yml', text);
    feed.put(
      'latest-linux.yml.sig',
      (await import('../../electron/core/updates/signatures')).signManifest(
        Buffer.from(text),
        keys.privateKey,
      ),
    );
    start({ logger: createLogger('main', lines) });
    expect((await service!.check()).failure).toBe('feed_not_manifest');
    const logged = JSON.parse(lines.lines.at(-1)!.replace(/^.*? \{/, '{')) as { error: string };
    expect(logged.error).toHaveLength(500);
  });

  it('turning automatic checks on again, or saying it again, moves no timer; a new channel checks 10 s later', () => {
    start();
    const first = timers.pending[0].id;
    service!.setPreferences({ automatic: true });
    expect(timers.pending.map((timer) => timer.id)).toEqual([first]);
    service!.setPreferences({ channel: 'beta' });
    expect(timers.pending).toHaveLength(1);
    expect(timers.pending[0].id).not.toBe(first);
    expect(timers.delays()).toEqual([FIRST_CHECK_DELAY_MS]);
    service!.setPreferences({ automatic: false });
    service!.setPreferences({ channel: 'latest' });
    expect(timers.pending).toEqual([]);
  });

  it('its parts log under the app’s logger: the settings store, electron-updater', async () => {
    const lines = memorySink();
    writeFileSync(join(dataDir, UPDATE_SETTINGS_FILE), 'not json');
    publishRelease(feed, keys, { version: '1.0.0' });
    start({ logger: createLogger('main', lines) });
    await service!.check();
    const text = lines.lines.join('\n');
    expect(text).toMatch(/WARN \[main:update-settings\] The update settings could not be read/);
    expect(text).toMatch(/INFO \[main:updater\] Checking for update/);
  });

  it('stopping a wait that is not there changes nothing', async () => {
    start();
    events = [];
    service!.cancelRestart();
    expect(events).toEqual([]);
  });

  it('once closed: no more events, no more timers, even when a check ends afterwards', async () => {
    publishRelease(feed, keys, { version: '1.0.0' });
    start();
    const checked = service!.check();
    service!.close();
    const after = events.length;
    await checked;
    expect(events).toHaveLength(after);
    expect(timers.pending).toEqual([]);
    service = null;
  });

  it('when the last-checked time cannot be saved, it is still shown for this session', async () => {
    publishRelease(feed, keys, { version: '1.0.0' });
    start();
    // The settings file becomes unreadable, and where it would be moved aside a folder is in the way.
    writeFileSync(join(dataDir, UPDATE_SETTINGS_FILE), 'not json');
    const now = vi.spyOn(Date, 'now').mockReturnValue(4242);
    mkdirSync(join(dataDir, `${UPDATE_SETTINGS_FILE}.unreadable-4242`));
    writeFileSync(join(dataDir, `${UPDATE_SETTINGS_FILE}.unreadable-4242`, 'x'), 'x');
    try {
      const status = await service!.check();
      expect(status).toMatchObject({ failure: null, lastCheckedAt: '2026-11-25T12:00:00.000Z' });
      expect(readFileSync(join(dataDir, UPDATE_SETTINGS_FILE), 'utf8')).toBe('not json');
    } finally {
      now.mockRestore();
    }
  });

  it('an updater that throws while installing is an install failure, not a stuck restart', async () => {
    publishRelease(feed, keys, { version: '1.2.0' });
    class Throwing extends DownloadOnlyUpdater {
      override quitAndInstall(): void {
        throw new Error('no installer here');
      }
    }
    start({ createUpdater: (_kind, adapter) => new Throwing(adapter, () => true) });
    await service!.check();
    expect(service!.restart()).toMatchObject({ phase: 'ready', failure: 'install_failed' });
  });
});
