/** Which of electron-updater's updaters an install uses, how it installs, and which file it takes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppImageUpdater, DebUpdater, NsisUpdater, RpmUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { silentLogger } from '../../../electron/core/log';
import { FeedHttpExecutor } from '../../../electron/core/updates/feedHttp';
import { forbidElectron, type ElectronGuard } from '../../helpers/noElectron';
import {
  createUpdater,
  DownloadOnlyUpdater,
  installerFileFor,
  installsOnQuitNatively,
  installStyleOf,
  updaterKindFor,
  useChannel,
  useSignedFeed,
  type InstallFacts,
} from '../../../electron/core/updates/updaters';

let guard: ElectronGuard;
let dir: string;
beforeAll(() => {
  guard = forbidElectron();
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-updaters-'));
});
afterAll(() => {
  guard.remove();
  rmSync(dir, { recursive: true, force: true });
  expect(guard.attempts).toEqual([]);
});

const adapter = (): AppAdapter => ({
  version: '1.0.0',
  name: 'ReportDesk',
  isPackaged: true,
  appUpdateConfigPath: join(dir, 'app-update.yml'),
  userDataPath: dir,
  baseCachePath: dir,
  whenReady: () => Promise.resolve(),
  relaunch: () => undefined,
  quit: () => undefined,
  onQuit: () => undefined,
});

describe('createUpdater', () => {
  it("makes electron-updater's own updater for each Linux and Windows package, without loading electron", () => {
    expect(createUpdater('appimage', adapter())).toBeInstanceOf(AppImageUpdater);
    expect(createUpdater('deb', adapter())).toBeInstanceOf(DebUpdater);
    expect(createUpdater('rpm', adapter())).toBeInstanceOf(RpmUpdater);
    expect(createUpdater('nsis', adapter())).toBeInstanceOf(NsisUpdater);
  });
});

describe('useSignedFeed', () => {
  it('downloads only when asked, never through a web installer, never to an older version', () => {
    const updater = useSignedFeed(new DownloadOnlyUpdater(adapter(), () => false), {
      feedUrl: 'https://updates.example.org/rd/',
      channel: 'beta',
      publicKeys: [generateKeyPairSync('ed25519').publicKey],
      logger: silentLogger,
    });
    expect(updater.autoDownload).toBe(false);
    expect(updater.disableWebInstaller).toBe(true);
    expect(updater.channel).toBe('beta');
    // electron-updater's channel setter allows a downgrade; useChannel takes it back.
    expect(updater.allowDowngrade).toBe(false);
    expect((updater as unknown as { httpExecutor: unknown }).httpExecutor).toBeInstanceOf(FeedHttpExecutor);
    useChannel(updater, 'latest');
    expect([updater.channel, updater.allowDowngrade]).toEqual(['latest', false]);
  });
});

const facts = (overrides: Partial<InstallFacts>): InstallFacts => ({
  platform: 'linux',
  packageType: null,
  appImage: undefined,
  ...overrides,
});

describe('updaterKindFor (as electron-updater’s own autoUpdater picks)', () => {
  it('Windows: NSIS; macOS: Squirrel.Mac', () => {
    expect(updaterKindFor(facts({ platform: 'win32' }))).toBe('nsis');
    expect(updaterKindFor(facts({ platform: 'darwin', packageType: 'deb' }))).toBe('mac');
  });

  it('Linux: the package type electron-builder wrote, else the AppImage the runtime names', () => {
    expect(updaterKindFor(facts({ packageType: 'deb' }))).toBe('deb');
    expect(updaterKindFor(facts({ packageType: 'rpm', appImage: '/a.AppImage' }))).toBe('rpm');
    expect(updaterKindFor(facts({ appImage: '/home/me/ReportDesk.AppImage' }))).toBe('appimage');
  });

  it('nothing for installs that do not update themselves', () => {
    expect(updaterKindFor(facts({}))).toBeNull();
    expect(updaterKindFor(facts({ appImage: '' }))).toBeNull();
    expect(updaterKindFor(facts({ packageType: 'pacman', appImage: '/a.AppImage' }))).toBeNull();
    expect(updaterKindFor(facts({ platform: 'freebsd', appImage: '/a.AppImage' }))).toBeNull();
  });
});

describe('installStyleOf', () => {
  it('deb and rpm ask for the administrator; the others install on quit', () => {
    expect(installStyleOf('deb')).toBe('asks-admin');
    expect(installStyleOf('rpm')).toBe('asks-admin');
    for (const kind of ['appimage', 'nsis', 'mac'] as const) expect(installStyleOf(kind)).toBe('on-quit');
  });
});

describe('installsOnQuitNatively', () => {
  it('only Squirrel.Mac installs on quit by itself', () => {
    expect(installsOnQuitNatively('mac')).toBe(true);
    for (const kind of ['appimage', 'deb', 'rpm', 'nsis'] as const)
      expect(installsOnQuitNatively(kind)).toBe(false);
  });
});

describe('installerFileFor', () => {
  it('the file each platform’s updater installs', () => {
    expect(installerFileFor('win32')).toEqual({ extension: 'exe' });
    expect(installerFileFor('darwin')).toEqual({ extension: 'zip' });
    expect(installerFileFor('linux')).toEqual({ extension: 'AppImage', not: ['rpm', 'deb', 'pacman'] });
  });
});
