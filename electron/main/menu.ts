/** Turns the pure menu description (electron/core/desktop/menuTemplate.ts) into Electron's Menu. */
import { Menu, type MenuItemConstructorOptions } from 'electron';
import {
  buildMenuDescription,
  type MenuCommandId,
  type MenuItemDescription,
  type MenuOptions,
} from '../core/desktop/menuTemplate';
import type { Words } from '../../shared/i18n/messages';

export function buildApplicationMenu(
  platform: NodeJS.Platform,
  words: Words,
  options: MenuOptions,
  onCommand: (command: MenuCommandId) => void,
): Menu {
  const toItem = (item: MenuItemDescription): MenuItemConstructorOptions => {
    switch (item.type) {
      case 'separator':
        return { type: 'separator' };
      case 'role':
        return { role: item.role, label: item.label };
      case 'command':
        // The id lets Menu.getMenuItemById find it (the Electron end-to-end tests click it that way).
        return {
          id: item.command,
          label: item.label,
          accelerator: item.accelerator,
          click: () => onCommand(item.command),
        };
    }
  };
  return Menu.buildFromTemplate(
    buildMenuDescription(platform, words, options).map((section) => ({
      label: section.label,
      role: section.role,
      submenu: section.items.map(toItem),
    })),
  );
}
