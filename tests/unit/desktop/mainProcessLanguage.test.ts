/**
 * The main process in the window's language (issue 28), against the fake Electron module and the
 * real core (tests/helpers/fakeElectron.ts): started with `--lang en-XA`, its application menu
 * (roles included), the window's first title, its dialogs and notifications are pseudo-localised;
 * a language chosen in Settings rebuilds the menu at once and the next dialog and notification
 * are in it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOGUES } from 'virtual:catalogues/all';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { wordsFor } from '../../../electron/core/desktop/words';
import type { Language } from '../../../shared/i18n/languages';
import { fake } from '../../helpers/fakeElectron';

vi.mock('electron', async () => (await import('../../helpers/fakeElectron')).fake.electron);

const wordsIn = (language: Language) =>
  wordsFor({ choice: 'system', systemLanguages: [], runLanguage: language }, CATALOGUES);
const pseudo = wordsIn('en-XA');
const english = wordsIn('en');

let dataDir: string;
const window = () => fake.windows[0];
const appFrame = () => ({
  senderFrame: { url: 'app://reportdesk/index.html', parent: null },
  sender: { id: window().webContents.id },
});
const call = (channel: string, input?: unknown) => fake.invoke(`reportdesk:${channel}`, appFrame(), input);
const menuLabels = () => fake.state.menuTemplate.map((section) => section.label);
const menuItem = (id: string) =>
  fake.state.menuTemplate.flatMap((section) => section.submenu ?? []).find((item) => item.id === id);
const roleLabel = (role: string) =>
  fake.state.menuTemplate.flatMap((section) => section.submenu ?? []).find((item) => item.role === role)
    ?.label;

/** Saves an export through the save dialog (cancelled): answers the dialog's title. */
async function saveDialogTitle(): Promise<unknown> {
  fake.state.saveDialogPath = null;
  await call('export:save', { fileName: 'reports.csv', format: 'csv', content: 'id\r\n' });
  return (fake.state.saveDialogOptions.at(-1) as { title?: string }).title;
}

/** A sync the user started, while the window is not in front: its notification. */
async function syncNotification(): Promise<{ title: string; body: string }> {
  const before = fake.notifications.length;
  const synced = (await call('cache:sync')) as { ok: boolean };
  expect(synced.ok).toBe(true);
  await vi.waitFor(() => expect(fake.notifications.length).toBe(before + 1), { timeout: 10_000 });
  return fake.notifications.at(-1)!;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reportdesk-main-lang-'));
  vi.stubEnv('REPORT_DESK_DATA_DIR', dataDir);
  vi.stubEnv('REPORT_DESK_E2E', '1');
  process.argv.push('--lang', 'en-XA');
  await import('../../../electron/main/main');
  fake.makeReady();
  await vi.waitFor(() => expect(fake.windows).toHaveLength(1), { timeout: 20_000 });
  expect((await call('profiles:startDemo')) as { ok: boolean }).toMatchObject({ ok: true });
});

afterAll(async () => {
  process.argv.splice(process.argv.indexOf('--lang'), 2);
  fake.emitApp('will-quit', { preventDefault: () => undefined });
  await vi.waitFor(() => expect(fake.state.exitCode).toBe(0), { timeout: 10_000 });
  vi.unstubAllEnvs();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('started with --lang en-XA', () => {
  it('labels the menu in it, Electron’s roles included, and titles the window in it', () => {
    expect(pseudo('menu.file')).toBe('[Ƒîļé ~~]');
    // "&" before each: the Alt-key mnemonic on Windows and Linux.
    expect(menuLabels()).toEqual(
      (['menu.file', 'menu.edit', 'menu.view', 'menu.window', 'menu.help'] as const).map(
        (id) => `&${pseudo(id)}`,
      ),
    );
    expect(roleLabel('undo')).toBe(pseudo('menu.role.undo'));
    expect(roleLabel('quit')).toBe(pseudo('menu.role.quit', { app: pseudo('app.name') }));
    expect(window().options.title).toBe(pseudo('app.name'));
  });

  it('words its dialogs and notifications in it', async () => {
    expect(await saveDialogTitle()).toBe(pseudo('main.export_dialog.title'));
    expect(fake.state.saveDialogOptions.at(-1)).toMatchObject({
      filters: [{ name: pseudo('main.export_dialog.filter_csv'), extensions: ['csv'] }],
    });
    const notification = await syncNotification();
    expect(notification.title).toBe(pseudo('notification.sync_done.title'));
    expect(notification.body).toMatch(/^\[/);

    // A folder the system cannot open: the error box, in the window's language.
    const openPath = fake.electron.shell.openPath;
    fake.electron.shell.openPath = async () => 'No application knows this folder';
    try {
      menuItem('open-logs-folder')!.click!();
      await vi.waitFor(() => expect(fake.state.errorBoxes).toHaveLength(1));
    } finally {
      fake.electron.shell.openPath = openPath;
    }
    const [title, body] = fake.state.errorBoxes[0];
    expect(title).toBe(pseudo('main.open_folder_failed.title'));
    expect(body).toMatch(/^\[ŔéƥöŕţÐéšķ çöûļð ñöţ öƥéñ .+: No application knows this folder ~+( ~+)*\]$/);
  });
});

describe('a language chosen in Settings', () => {
  it('rebuilds the menu in it at once; the next dialog and notification are in it', async () => {
    const before = fake.state.menusSet;
    expect((await call('settings:setLanguage', { choice: 'en' })) as { ok: boolean }).toMatchObject({
      ok: true,
    });
    expect(fake.state.menusSet).toBe(before + 1);
    expect(menuLabels()).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
    expect(roleLabel('quit')).toBe('Quit ReportDesk');
    expect(await saveDialogTitle()).toBe(english('main.export_dialog.title'));
    const notification = await syncNotification();
    expect(notification).toEqual({
      title: english('notification.sync_done.title'),
      body: expect.stringMatching(/^\d+ reports? (is|are) now saved/) as unknown as string,
    });
  });
});
