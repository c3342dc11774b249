/**
 * The main process's wiring (electron/main/*.ts) against a fake Electron module — the runtime
 * binary is not installed here. The core behind it is real: createCoreServices on a temp data
 * folder with a real SQLite file. What is checked is the glue: the userData override, privileged
 * scheme, single-instance handling, IPC binding with sender checks, the window's hardening,
 * deep links held until the page listens, menu commands, notifications, the power source of
 * "Keep available offline" and the quit sequence.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES } from '../../../shared/contract';
import { fake } from '../../helpers/fakeElectron';

vi.mock('electron', async () => (await import('../../helpers/fakeElectron')).fake.electron);

let dataDir: string;
let processListenersBefore: Set<unknown>;
const window = () => fake.windows[0];
const appFrame = (w = window()) => ({
  senderFrame: { url: 'app://reportdesk/index.html', parent: null },
  sender: { id: w.webContents.id },
});
const pageEvents = () => window().webContents.sent.filter((args) => args[0] === 'reportdesk:event');

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reportdesk-main-'));
  vi.stubEnv('REPORT_DESK_DATA_DIR', dataDir);
  vi.stubEnv('REPORT_DESK_E2E', '1');
  process.argv.push('reportdesk://report/77');
  processListenersBefore = new Set([
    ...process.listeners('uncaughtException'),
    ...process.listeners('unhandledRejection'),
  ]);
  await import('../../../electron/main/main');
  fake.makeReady();
  await vi.waitFor(() => expect(fake.windows).toHaveLength(1), { timeout: 20_000 });
});

afterAll(() => {
  // main.ts logs uncaught errors instead of Electron's stack-trace dialog; give the worker its own back.
  for (const listener of process.listeners('uncaughtException')) {
    if (!processListenersBefore.has(listener)) process.off('uncaughtException', listener);
  }
  for (const listener of process.listeners('unhandledRejection')) {
    if (!processListenersBefore.has(listener)) process.off('unhandledRejection', listener);
  }
  process.argv.splice(process.argv.indexOf('reportdesk://report/77'), 1);
  vi.unstubAllEnvs();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('main process wiring', () => {
  it('uses REPORT_DESK_DATA_DIR, registers app:// as privileged, and skips OS protocol registration in E2E runs', () => {
    expect(fake.electron.app.getPath('userData')).toBe(dataDir);
    expect(fake.state.privilegedSchemes).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    ]);
    expect(fake.state.registeredProtocols).toEqual([]);
  });

  it('creates a hardened window on app://reportdesk', () => {
    const w = window();
    expect(w.options.show).toBe(false);
    expect(w.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(String((w.options.webPreferences as { preload: string }).preload)).toMatch(/preload\.cjs$/);
    expect(w.loadedUrl).toBe('app://reportdesk/index.html');
    fake.emitWindow(w, 'ready-to-show');
    expect(w.shown).toBe(true);
  });

  it('denies every permission request and check, except clipboard writes from the app page', () => {
    let granted: boolean | null = null;
    const appPage = { getURL: () => 'app://reportdesk/index.html' };
    fake.state.permissionRequest?.(appPage, 'media', (answer: boolean) => (granted = answer), {});
    expect(granted).toBe(false);
    expect(fake.state.permissionCheck?.(appPage, 'notifications', 'app://reportdesk', {})).toBe(false);
    expect(fake.state.permissionCheck?.(appPage, 'clipboard-sanitized-write', 'app://reportdesk', {})).toBe(
      true,
    );
    expect(fake.state.permissionCheck?.(appPage, 'clipboard-read', 'app://reportdesk', {})).toBe(false);
  });

  it('answers contract requests from the window, and refuses them from anywhere else', async () => {
    expect(fake.ipcHandlers.size).toBe(CHANNEL_NAMES.length);
    const status = await fake.invoke('reportdesk:cache:status', appFrame(), undefined);
    expect(status).toMatchObject({ ok: true, value: { reportCount: 0 } });
    const foreign = await fake.invoke(
      'reportdesk:cache:status',
      {
        senderFrame: { url: 'https://evil.example/', parent: null },
        sender: { id: window().webContents.id },
      },
      undefined,
    );
    expect(foreign).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });

  it('holds the deep link it was started with until the page listens, then navigates', async () => {
    expect(pageEvents()).toEqual([]);
    // A subscription message from a foreign frame changes nothing.
    fake.emitIpc(
      'reportdesk:subscription',
      { senderFrame: { url: 'devtools://devtools/x', parent: null }, sender: { id: 999 } },
      'app:navigate',
      true,
    );
    expect(pageEvents()).toEqual([]);
    fake.emitIpc('reportdesk:subscription', appFrame(), 'app:navigate', true);
    // The core opens the link (links:open) asynchronously.
    await expect.poll(pageEvents).toEqual([['reportdesk:event', 'app:navigate', { path: '/reports/77' }]]);
  });

  it('forwards a second launch deep link and focuses the window; ignores malformed links', async () => {
    fake.emitApp('second-instance', {}, ['/opt/ReportDesk/reportdesk', 'reportdesk://report/not valid!']);
    fake.emitApp('second-instance', {}, ['/opt/ReportDesk/reportdesk', 'reportdesk://report/12']);
    await expect
      .poll(() => pageEvents().at(-1))
      .toEqual(['reportdesk:event', 'app:navigate', { path: '/reports/12' }]);
    expect(pageEvents()).toHaveLength(2);
    expect(window().focused).toBe(true);
  });

  it('a link naming a profile that is not set up opens the list with a notice saying which', async () => {
    fake.emitApp('second-instance', {}, [
      '/opt/ReportDesk/reportdesk',
      'reportdesk://report/12?profile=gone1',
    ]);
    await expect
      .poll(() => pageEvents().at(-1))
      .toEqual([
        'reportdesk:event',
        'app:navigate',
        {
          path: '/reports',
          // The error itself: the page words it in its language.
          notice: expect.objectContaining({
            kind: 'not_found',
            code: 'link.profile_missing',
            values: { profile: 'gone1' },
          }) as unknown,
        },
      ]);
  });

  it('saves an export where the save dialog says, atomically with mode 0600; a cancel saves nothing', async () => {
    const target = join(dataDir, 'exported.csv');
    const save = fake.ipcHandlers.get('reportdesk:export:save')!;
    fake.state.saveDialogPath = null;
    const cancelled = await save(appFrame(), { fileName: 'reports-x.csv', format: 'csv', content: 'id\r\n' });
    expect(cancelled).toEqual({ ok: true, value: { saved: false, path: null, download: false } });
    expect(existsSync(target)).toBe(false);

    fake.state.saveDialogPath = target;
    const saved = await save(appFrame(), {
      fileName: 'reports-x.csv',
      format: 'csv',
      content: 'id,url\r\n1,x\r\n',
    });
    expect(saved).toEqual({ ok: true, value: { saved: true, path: target, download: false } });
    expect(readFileSync(target, 'utf8')).toBe('id,url\r\n1,x\r\n');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(fake.state.saveDialogOptions.at(-1)).toMatchObject({
      defaultPath: expect.stringMatching(/reports-x\.csv$/) as unknown,
      title: 'Export reports',
      filters: [{ name: 'CSV files', extensions: ['csv'] }],
    });
  });

  it('labels every menu item in the language of the window, roles included, and rebuilds the menu when it changes', async () => {
    const items = fake.state.menuTemplate.flatMap((section) => section.submenu ?? []);
    expect(fake.state.menuTemplate.map((section) => section.label)).toEqual([
      '&File',
      '&Edit',
      '&View',
      '&Window',
      '&Help',
    ]);
    expect(items.find((item) => item.role === 'undo')?.label).toBe('Undo');
    expect(items.find((item) => item.role === 'quit')?.label).toBe('Quit ReportDesk');
    const before = fake.state.menusSet;
    const chosen = await fake.invoke('reportdesk:settings:setLanguage', appFrame(), { choice: 'en' });
    expect(chosen).toMatchObject({ ok: true, value: { choice: 'en', systemLanguages: ['en-GB', 'de-DE'] } });
    expect(fake.state.menusSet).toBe(before + 1);
    expect(pageEvents().filter((args) => args[1] === 'language:changed')).toHaveLength(0);
    fake.emitIpc('reportdesk:subscription', appFrame(), 'language:changed', true);
    await fake.invoke('reportdesk:settings:setLanguage', appFrame(), { choice: 'system' });
    expect(pageEvents().at(-1)).toEqual([
      'reportdesk:event',
      'language:changed',
      { choice: 'system', systemLanguages: ['en-GB', 'de-DE'], runLanguage: null },
    ]);
  });

  it('a development run never checks for updates: no menu item, and Settings says why', async () => {
    const items = fake.state.menuTemplate.flatMap((section) => section.submenu ?? []);
    expect(items.map((item) => item.id)).not.toContain('check-for-updates');
    const status = (await fake.invoke('reportdesk:updates:status', appFrame(), undefined)) as {
      ok: boolean;
      value: { managed: boolean; unmanagedReason: string; currentVersion: string };
    };
    expect(status.value).toMatchObject({
      managed: false,
      unmanagedReason: 'development',
      currentVersion: '0.0.0-test',
    });
  });

  it('sends menu commands to the page as app:command', () => {
    fake.emitIpc('reportdesk:subscription', appFrame(), 'app:command', true);
    const items = fake.state.menuTemplate.flatMap((section) => section.submenu ?? []);
    items.find((item) => item.id === 'refresh')!.click!();
    expect(pageEvents().at(-1)).toEqual(['reportdesk:event', 'app:command', { command: 'refresh' }]);
  });

  it('blocks navigation away from the app and sends window.open links to the browser', () => {
    let prevented = false;
    fake.emitContents(window(), 'will-navigate', {
      url: 'https://evil.example/',
      preventDefault: () => (prevented = true),
    });
    expect(prevented).toBe(true);
    let allowedPrevented = false;
    fake.emitContents(window(), 'will-navigate', {
      url: 'app://reportdesk/index.html#/account',
      preventDefault: () => (allowedPrevented = true),
    });
    expect(allowedPrevented).toBe(false);
    expect(window().webContents.windowOpenHandler!({ url: 'https://example.com/help' })).toEqual({
      action: 'deny',
    });
    const recorded = (globalThis as unknown as { __reportDeskE2E: { openedExternally: string[] } })
      .__reportDeskE2E;
    expect(recorded.openedExternally).toEqual(['https://example.com/help']);
  });

  it('serves the renderer through the app:// handler with the CSP header', async () => {
    const handler = fake.state.protocolHandlers.get('app')!;
    const response = await handler(new Request('app://reportdesk/%2e%2e%2fpackage.json'));
    expect(response.status).toBe(403);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('saves the window bounds to userData/window-state.json when it closes', () => {
    fake.emitWindow(window(), 'close');
    expect(JSON.parse(readFileSync(join(dataDir, 'window-state.json'), 'utf8'))).toEqual({
      x: 10,
      y: 20,
      width: 1000,
      height: 700,
      maximized: false,
    });
  });

  it('called the before-ready APIs before ready and the others after (the fake enforces both)', () => {
    // main.ts ran its module body before makeReady() and start() after: had it touched screen,
    // session, net or protocol.handle too early, or setPath/enableSandbox/registerSchemesAsPrivileged
    // too late, the fake would have thrown as Electron does. Now, after ready:
    expect(() => fake.electron.app.enableSandbox()).toThrow(/before app is ready/);
    expect(() => fake.electron.app.setPath('userData', dataDir)).toThrow(/before app is ready/);
    expect(() => fake.electron.protocol.registerSchemesAsPrivileged([])).toThrow(/before app is ready/);
    expect(() => fake.electron.screen.getPrimaryDisplay()).not.toThrow();
  });

  it('replies and page events cross to the renderer as Electron clones them', async () => {
    // A function (or a Promise, a Symbol) in a reply fails in Electron; class instances lose their prototype.
    expect(() => fake.crossProcess({ run: () => 1 })).toThrow('An object could not be cloned.');
    class Point {
      constructor(readonly x: number) {}
    }
    expect(fake.crossProcess(new Point(1))).not.toBeInstanceOf(Point);
    // The real handlers' replies and the relayed events are plain data, so nothing is lost.
    for (const channel of ['reportdesk:cache:status', 'reportdesk:profiles:list']) {
      const handler = fake.ipcHandlers.get(channel);
      expect(handler).toBeDefined();
      const direct = await handler!(appFrame(), undefined);
      expect(await fake.invoke(channel, appFrame(), undefined)).toEqual(direct);
    }
    expect(pageEvents().length).toBeGreaterThan(0);
  });

  it('keeps a kept-offline profile current with powerMonitor: on battery the first full sync waits, on-ac runs it', async () => {
    const call = (channel: string, input?: unknown) =>
      fake.invoke(`reportdesk:${channel}`, appFrame(), input);
    const started = (await call('profiles:startDemo')) as { ok: true; value: { activeId: string } };
    const profileId = started.value.activeId;
    // Listening to both power events from the start.
    expect(fake.powerEvents.get('on-ac')).toHaveLength(1);
    expect(fake.powerEvents.get('on-battery')).toHaveLength(1);
    fake.electron.powerMonitor.battery = true;
    const set = (await call('offline:set', { profileId, keepOffline: true })) as {
      ok: true;
      value: { keepOffline: boolean };
    };
    expect(set.value.keepOffline).toBe(true);
    const state = async () =>
      ((await call('offline:get', { profileId })) as { ok: true; value: Record<string, unknown> }).value;
    await vi.waitFor(async () => expect((await state()).waitingForPower).toBe(true), { timeout: 10_000 });
    expect((await state()).lastFullSyncAt).toBeNull();
    fake.electron.powerMonitor.battery = false;
    fake.emitPower('on-ac');
    await vi.waitFor(async () => expect((await state()).lastFullSyncAt).not.toBeNull(), { timeout: 20_000 });
    expect((await state()).waitingForPower).toBe(false);
    // A background sync finishing is no news: no "available offline" notification for it.
    expect(fake.notifications).toEqual([]);
  });

  it('closes the core on quit before the process exits', async () => {
    let prevented = false;
    fake.emitApp('will-quit', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    await vi.waitFor(() => expect(fake.state.exitCode).toBe(0), { timeout: 10_000 });
    expect(fake.ipcHandlers.size).toBe(0);
    // The second will-quit (from app.exit) passes through.
    let preventedAgain = false;
    fake.emitApp('will-quit', { preventDefault: () => (preventedAgain = true) });
    expect(preventedAgain).toBe(false);
  });
});
