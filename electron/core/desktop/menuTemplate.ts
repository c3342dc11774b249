/**
 * The application menu as plain data, per platform; electron/main/menu.ts turns it into an
 * Electron Menu. Items either use a built-in role (copy, zoom, quit, …) or carry a command id:
 * renderer commands reach the page as the `app:command` event, the others are handled in main.
 * Refresh is a command on purpose: the `reload` role would reload the page and drop its state.
 */
import type { AppCommand } from '../../../shared/contract';

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
  | { type: 'role'; role: MenuRole }
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

const separator: MenuItemDescription = { type: 'separator' };
const role = (r: MenuRole): MenuItemDescription => ({ type: 'role', role: r });
const command = (label: string, id: MenuCommandId, accelerator?: string): MenuItemDescription =>
  accelerator
    ? { type: 'command', label, command: id, accelerator }
    : { type: 'command', label, command: id };

export function buildMenuDescription(
  platform: NodeJS.Platform | string,
  options: MenuOptions = { packaged: true, appName: 'ReportDesk' },
): MenuSection[] {
  const mac = platform === 'darwin';
  // "&" marks the Alt-key mnemonic on Windows and Linux; macOS menus have none.
  const title = (name: string) => (mac ? name : `&${name}`);
  const sections: MenuSection[] = [];

  if (mac) {
    sections.push({
      label: options.appName,
      items: [
        role('about'),
        ...(options.checkForUpdates ? [command('Check for Updates…', 'check-for-updates')] : []),
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
    label: title('File'),
    items: [
      command('New Report', 'new-report', 'CmdOrCtrl+N'),
      command('Make Available Offline', 'sync'),
      command('Switch Profile…', 'switch-profile'),
      separator,
      command('Open Data Folder', 'open-data-folder'),
      separator,
      mac ? role('close') : role('quit'),
    ],
  });

  sections.push({
    label: title('Edit'),
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
    label: title('View'),
    items: [
      command('Refresh', 'refresh', 'CmdOrCtrl+R'),
      command('Find…', 'focus-search', 'CmdOrCtrl+F'),
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
    label: title('Window'),
    role: 'window',
    items: mac
      ? [role('minimize'), role('zoom'), separator, role('front')]
      : [role('minimize'), role('close')],
  });

  sections.push({
    label: title('Help'),
    role: 'help',
    items: [
      command('Keyboard Shortcuts', 'show-shortcuts'),
      command('Open Logs Folder', 'open-logs-folder'),
      // On macOS "About" and "Check for Updates…" live in the app menu.
      ...(mac
        ? []
        : [
            separator,
            ...(options.checkForUpdates ? [command('Check for Updates…', 'check-for-updates')] : []),
            command(`About ${options.appName}`, 'about'),
          ]),
    ],
  });

  return sections;
}
