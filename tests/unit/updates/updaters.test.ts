/** Which of electron-updater's updaters an install uses, how it installs, and which file it takes. */
import { describe, expect, it } from 'vitest';
import {
  installerFileFor,
  installStyleOf,
  updaterKindFor,
  type InstallFacts,
} from '../../../electron/core/updates/updaters';

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

describe('installerFileFor', () => {
  it('the file each platform’s updater installs', () => {
    expect(installerFileFor('win32')).toEqual({ extension: 'exe' });
    expect(installerFileFor('darwin')).toEqual({ extension: 'zip' });
    expect(installerFileFor('linux')).toEqual({ extension: 'AppImage', not: ['rpm', 'deb', 'pacman'] });
  });
});
