// Linted as electron/main/<file>: a menu item the main process shows, labelled in English.
export const item = { label: 'Open Logs Folder', click: () => undefined };
