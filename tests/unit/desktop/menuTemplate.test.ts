import { describe, expect, it } from 'vitest';
import {
  buildMenuDescription,
  routeMenuCommand,
  type MenuItemDescription,
  type MenuSection,
} from '../../../electron/core/desktop/menuTemplate';
import { englishWords, idWords } from '../../helpers/words';

const label = (s: MenuSection) => s.label.replace('&', '');
const section = (menu: MenuSection[], name: string) => {
  const found = menu.find((s) => label(s) === name);
  if (!found) throw new Error(`no ${name} menu`);
  return found;
};
const commands = (items: MenuItemDescription[]) =>
  items.flatMap((i) =>
    i.type === 'command' ? [{ label: i.label, command: i.command, accelerator: i.accelerator }] : [],
  );
const roles = (items: MenuItemDescription[]) => items.flatMap((i) => (i.type === 'role' ? [i.role] : []));
const all = (menu: MenuSection[]) => menu.flatMap((s) => s.items);

describe('buildMenuDescription', () => {
  const dev = { packaged: false, appName: 'ReportDesk' };
  const packaged = { packaged: true, appName: 'ReportDesk' };

  it('on macOS starts with the app menu, which holds About and Quit', () => {
    const menu = buildMenuDescription('darwin', englishWords, packaged);
    expect(menu.map(label)).toEqual(['ReportDesk', 'File', 'Edit', 'View', 'Window', 'Help']);
    expect(roles(menu[0].items)).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect(roles(section(menu, 'File').items)).toEqual(['close']);
  });

  it.each(['win32', 'linux'])(
    'on %s has no app menu, Quit in File, About in Help, Alt mnemonics',
    (platform) => {
      const menu = buildMenuDescription(platform, englishWords, packaged);
      expect(menu.map((s) => s.label)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
      expect(roles(section(menu, 'File').items)).toEqual(['quit']);
      expect(commands(section(menu, 'Help').items).map((c) => c.command)).toEqual([
        'show-shortcuts',
        'open-logs-folder',
        'about',
      ]);
    },
  );

  it('offers "Check for Updates…" where the install updates itself: Help (Windows, Linux), the app menu (macOS)', () => {
    const updating = { ...packaged, checkForUpdates: true };
    for (const platform of ['win32', 'linux']) {
      expect(commands(section(buildMenuDescription(platform, englishWords, updating), 'Help').items)).toEqual(
        [
          { label: 'Keyboard Shortcuts', command: 'show-shortcuts', accelerator: undefined },
          { label: 'Open Logs Folder', command: 'open-logs-folder', accelerator: undefined },
          { label: 'Check for Updates…', command: 'check-for-updates', accelerator: undefined },
          { label: 'About ReportDesk', command: 'about', accelerator: undefined },
        ],
      );
    }
    const mac = buildMenuDescription('darwin', englishWords, updating);
    expect(mac[0].items.slice(0, 2)).toEqual([
      { type: 'role', role: 'about', label: 'About ReportDesk' },
      { type: 'command', label: 'Check for Updates…', command: 'check-for-updates' },
    ]);
    expect(commands(section(mac, 'Help').items).map((c) => c.command)).not.toContain('check-for-updates');
    // A development run, or an install that does not update itself, has no such item.
    for (const platform of ['darwin', 'win32', 'linux']) {
      for (const options of [dev, packaged, { ...packaged, checkForUpdates: false }]) {
        const ids = commands(all(buildMenuDescription(platform, englishWords, options))).map(
          (c) => c.command,
        );
        expect(ids).not.toContain('check-for-updates');
      }
    }
    expect(routeMenuCommand('check-for-updates')).toEqual({ target: 'main', command: 'check-for-updates' });
  });

  it('has the File commands with Ctrl/Cmd+N for a new report', () => {
    const file = commands(section(buildMenuDescription('linux', englishWords, packaged), 'File').items);
    expect(file).toEqual([
      { label: 'New Report', command: 'new-report', accelerator: 'CmdOrCtrl+N' },
      { label: 'Make Available Offline', command: 'sync', accelerator: undefined },
      { label: 'Switch Profile…', command: 'switch-profile', accelerator: undefined },
      { label: 'Open Data Folder', command: 'open-data-folder', accelerator: undefined },
    ]);
  });

  it('binds Ctrl/Cmd+R to the refresh command, never to the reload role', () => {
    for (const platform of ['darwin', 'win32', 'linux']) {
      const menu = buildMenuDescription(platform, englishWords, dev);
      const view = section(menu, 'View').items;
      expect(commands(view).slice(0, 3)).toEqual([
        { label: 'Refresh', command: 'refresh', accelerator: 'CmdOrCtrl+R' },
        { label: 'Find…', command: 'focus-search', accelerator: 'CmdOrCtrl+F' },
        // Not Cmd+H: macOS hides the app with it.
        { label: 'History', command: 'show-history', accelerator: 'CmdOrCtrl+Shift+H' },
      ]);
      expect(routeMenuCommand('show-history')).toEqual({ target: 'renderer', command: 'show-history' });
      expect(roles(all(menu))).not.toContain('reload');
      expect(roles(all(menu))).not.toContain('forceReload');
    }
  });

  it('offers developer tools only when not packaged', () => {
    expect(roles(all(buildMenuDescription('linux', englishWords, dev)))).toContain('toggleDevTools');
    expect(roles(all(buildMenuDescription('linux', englishWords, packaged)))).not.toContain('toggleDevTools');
    expect(roles(all(buildMenuDescription('darwin', englishWords, packaged)))).not.toContain(
      'toggleDevTools',
    );
  });

  it('has the standard edit roles and zoom in View', () => {
    const menu = buildMenuDescription('win32', englishWords, packaged);
    expect(roles(section(menu, 'Edit').items)).toEqual([
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'delete',
      'selectAll',
    ]);
    expect(roles(section(menu, 'View').items)).toEqual([
      'resetZoom',
      'zoomIn',
      'zoomOut',
      'togglefullscreen',
    ]);
  });

  it('uses no accelerator twice', () => {
    for (const platform of ['darwin', 'win32', 'linux']) {
      const accelerators = commands(all(buildMenuDescription(platform, englishWords, dev)))
        .map((c) => c.accelerator)
        .filter(Boolean);
      expect(new Set(accelerators).size).toBe(accelerators.length);
    }
  });
});

describe('the menu in the language of the window', () => {
  it('labels every item from the catalogue, roles included (Electron’s own role labels are English)', () => {
    for (const platform of ['darwin', 'win32', 'linux']) {
      const menu = buildMenuDescription(platform, idWords(), { packaged: false, appName: 'ReportDesk' });
      const labels = all(menu).flatMap((item) => (item.type === 'separator' ? [] : [item.label]));
      expect(labels.length).toBeGreaterThan(15);
      for (const text of labels) expect(text).toMatch(/^⟦menu\.[a-z_.]+⟧/);
      // The titles too (the macOS app menu is the app's name).
      for (const section of menu.slice(platform === 'darwin' ? 1 : 0))
        expect(section.label).toMatch(/^&?⟦menu\./);
    }
  });

  it('names the app in the items that name it', () => {
    const mac = buildMenuDescription('darwin', englishWords, { packaged: true, appName: 'ReportDesk' });
    const macLabels = all(mac).flatMap((item) => (item.type === 'role' ? [item.label] : []));
    expect(macLabels).toEqual(
      expect.arrayContaining(['About ReportDesk', 'Hide ReportDesk', 'Quit ReportDesk']),
    );
    const linux = buildMenuDescription('linux', englishWords, { packaged: true, appName: 'ReportDesk' });
    expect(commands(section(linux, 'Help').items).at(-1)?.label).toBe('About ReportDesk');
  });

  it('keeps an ampersand a translation holds as a character, not an Alt-key mnemonic', () => {
    const words = Object.assign(
      (id: string) => (id === 'menu.file' ? 'Datei & Co' : id === 'menu.file.new_report' ? 'Neu & leer' : id),
      { language: 'de' as const },
    );
    const menu = buildMenuDescription('linux', words, { packaged: true, appName: 'ReportDesk' });
    expect(menu[0].label).toBe('&Datei && Co');
    expect(commands(menu[0].items)[0].label).toBe('Neu && leer');
  });
});

describe('routeMenuCommand', () => {
  it('sends renderer commands to the page as app:command and keeps the rest in main', () => {
    expect(routeMenuCommand('refresh')).toEqual({ target: 'renderer', command: 'refresh' });
    expect(routeMenuCommand('sync')).toEqual({ target: 'renderer', command: 'sync' });
    expect(routeMenuCommand('show-shortcuts')).toEqual({ target: 'renderer', command: 'show-shortcuts' });
    expect(routeMenuCommand('open-logs-folder')).toEqual({ target: 'main', command: 'open-logs-folder' });
    expect(routeMenuCommand('about')).toEqual({ target: 'main', command: 'about' });
  });

  it('routes every command in every menu somewhere', () => {
    const all = buildMenuDescription('win32', englishWords, {
      packaged: false,
      appName: 'ReportDesk',
    }).flatMap((s) => commands(s.items));
    for (const c of all) expect(['renderer', 'main']).toContain(routeMenuCommand(c.command).target);
  });
});
