// Linted as electron/core/desktop/<file>: an error box's text in English.
declare const dialog: { showErrorBox(title: string, content: string): void };
declare const words: (id: string) => string;

export const fail = (folder: string) =>
  dialog.showErrorBox(words('main.open_folder_failed.title'), `ReportDesk could not open ${folder}`);
