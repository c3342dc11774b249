/**
 * The application menu as plain data, per platform; electron/main/menu.ts turns it into an
 * Electron Menu. Items either use a built-in role (copy, zoom, quit, …) or carry a command id:
 * renderer commands reach the page as the `app:command` event, the others are handled in main.
 * Refresh is a command on purpose: the `reload` role would reload the page and drop its state.
 * Every item is labelled from the catalogue (`menu.*`), roles included: Electron's are English.
 */
import type { AppCommand } from '../../../shared/contract';
import type { MessageId, Words } from '../../../shared/i18n/messages';

export type MainCommand = 'open-data-folder' | 'open-logs-folder' | 'about' | 'check-for-updates';
export type MenuCommandId = AppCommand | MainCommand;

/** The Electron menu roles this menu uses. */
export type MenuRole =
  | 'about'
  | 'services'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'quit'
  | 'close'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'pasteAndMatchStyle'
  | 'delete'
  | 'selectAll'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'toggleDevTools'
  | 'minimize'
  | 'zoom'
  | 'front';

export type MenuItemDescription =
  | { type: 'separator' }
  /** Labelled too: Electron's own labels for roles are English. */
  | { type: 'role'; role: MenuRole; label: string }
  | { type: 'command'; label: string; command: MenuCommandId; accelerator?: string };

export interface MenuSection {
  label: string;
  /** macOS gives the 'window' and 'help' menus extra behaviour (window list, help search). */
  role?: 'window' | 'help';
  items: MenuItemDescription[];
}

export interface MenuOptions {
  /** A packaged build has no developer tools item. */
  packaged: boolean;
  appName: string;
  /** This install updates itself: the menu offers "Check for Updates…" (not in a development run). */
  checkForUpdates?: boolean;
}

const RENDERER_COMMANDS: readonly AppCommand[] = [
  'refresh',
  'new-report',
  'focus-search',
  'show-history',
  'switch-profile',
  'sync',
  'show-shortcuts',
];

export type MenuCommandRoute =
  { target: 'renderer'; command: AppCommand } | { target: 'main'; command: MainCommand };

export function routeMenuCommand(command: MenuCommandId): MenuCommandRoute {
  return (RENDERER_COMMANDS as readonly string[]).includes(command)
    ? { target: 'renderer', command: command as AppCommand }
    : { target: 'main', command: command as MainCommand };
}

/** Each role's label. */
const ROLE_LABELS: Record<MenuRole, MessageId> = {
  about: 'menu.role.about',
  services: 'menu.role.services',
  hide: 'menu.role.hide',
  hideOthers: 'menu.role.hide_others',
  unhide: 'menu.role.unhide',
  quit: 'menu.role.quit',
  close: 'menu.role.close',
  undo: 'menu.role.undo',
  redo: 'menu.role.redo',
  cut: 'menu.role.cut',
  copy: 'menu.role.copy',
  paste: 'menu.role.paste',
  pasteAndMatchStyle: 'menu.role.paste_and_match_style',
  delete: 'menu.role.delete',
  selectAll: 'menu.role.select_all',
  resetZoom: 'menu.role.reset_zoom',
  zoomIn: 'menu.role.zoom_in',
  zoomOut: 'menu.role.zoom_out',
  togglefullscreen: 'menu.role.toggle_full_screen',
  toggleDevTools: 'menu.role.toggle_dev_tools',
  minimize: 'menu.role.minimize',
  zoom: 'menu.role.zoom',
  front: 'menu.role.front',
};

const separator: MenuItemDescription = { type: 'separator' };

/** "&" marks an Alt-key mnemonic in a label: a translation's own "&" is doubled to stay a character. */
const plainLabel = (text: string) => text.replace(/&/g, '&&');

export function buildMenuDescription(
  platform: NodeJS.Platform | string,
  words: Words,
  options: MenuOptions = { packaged: true, appName: 'ReportDesk' },
): MenuSection[] {
  const mac = platform === 'darwin';
  const app = options.appName;
  const role = (r: MenuRole): MenuItemDescription => ({
    type: 'role',
    role: r,
    label: plainLabel(words(ROLE_LABELS[r], { app })),
  });
  const command = (id: MessageId, commandId: MenuCommandId, accelerator?: string): MenuItemDescription => {
    const label = plainLabel(words(id, { app }));
    return accelerator
      ? { type: 'command', label, command: commandId, accelerator }
      : { type: 'command', label, command: commandId };
  };
  // "&" marks the Alt-key mnemonic on Windows and Linux (the title's first letter); macOS menus have none.
  const title = (id: MessageId) => (mac ? plainLabel(words(id)) : `&${plainLabel(words(id))}`);
  const sections: MenuSection[] = [];

  if (mac) {
    sections.push({
      label: app,
      items: [
        role('about'),
        ...(options.checkForUpdates ? [command('menu.app.check_for_updates', 'check-for-updates')] : []),
        separator,
        role('services'),
        separator,
        role('hide'),
        role('hideOthers'),
        role('unhide'),
        separator,
        role('quit'),
      ],
    });
  }

  sections.push({
    label: title('menu.file'),
    items: [
      command('menu.file.new_report', 'new-report', 'CmdOrCtrl+N'),
      command('menu.file.make_available_offline', 'sync'),
      command('menu.file.switch_profile', 'switch-profile'),
      separator,
      command('menu.file.open_data_folder', 'open-data-folder'),
      separator,
      mac ? role('close') : role('quit'),
    ],
  });

  sections.push({
    label: title('menu.edit'),
    items: [
      role('undo'),
      role('redo'),
      separator,
      role('cut'),
      role('copy'),
      role('paste'),
      ...(mac ? [role('pasteAndMatchStyle')] : []),
      role('delete'),
      separator,
      role('selectAll'),
    ],
  });

  sections.push({
    label: title('menu.view'),
    items: [
      command('menu.view.refresh', 'refresh', 'CmdOrCtrl+R'),
      command('menu.view.find', 'focus-search', 'CmdOrCtrl+F'),
      // Cmd+H hides the app on macOS, Ctrl+H is a browser's history: Shift too, as in the page.
      command('menu.view.history', 'show-history', 'CmdOrCtrl+Shift+H'),
      separator,
      role('resetZoom'),
      role('zoomIn'),
      role('zoomOut'),
      separator,
      role('togglefullscreen'),
      ...(options.packaged ? [] : [separator, role('toggleDevTools')]),
    ],
  });

  sections.push({
    label: title('menu.window'),
    role: 'window',
    items: mac
      ? [role('minimize'), role('zoom'), separator, role('front')]
      : [role('minimize'), role('close')],
  });

  sections.push({
    label: title('menu.help'),
    role: 'help',
    items: [
      command('menu.help.keyboard_shortcuts', 'show-shortcuts'),
      command('menu.help.open_logs_folder', 'open-logs-folder'),
      // On macOS "About" and "Check for Updates…" live in the app menu.
      ...(mac
        ? []
        : [
            separator,
            ...(options.checkForUpdates ? [command('menu.app.check_for_updates', 'check-for-updates')] : []),
            command('menu.help.about', 'about'),
          ]),
    ],
  });

  return sections;
}
