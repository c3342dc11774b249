/**
 * Electron's main process: app lifecycle, single instance, deep links, the app:// protocol,
 * the window, the menu and the IPC binding to the core. Thin on purpose — every decision is a
 * plain function under electron/core (tested without Electron); this file only connects them.
 */
import {
  app,
  dialog,
  ipcMain,
  Menu,
  net,
  Notification,
  powerMonitor,
  protocol,
  session,
  shell,
  type BrowserWindow,
} from 'electron';
import { join, resolve } from 'node:path';
import { CATALOGUES } from 'virtual:catalogues/all';
import { AppFailure, toAppError, wordedError } from '../../shared/errors';
import { checkExternalUrl, externalUrlRefusal } from '../../shared/externalUrl';
import { isLanguage, languageArgument, type Language, type LanguageState } from '../../shared/i18n/languages';
import type { Words } from '../../shared/i18n/messages';
import { errorSentence } from '../../shared/i18n/errorSentence';
import { writeExportFile } from '../core/export/exportFile';
import { createLogger, rotatingFileSink } from '../core/log';
import { nativeModuleFailure } from '../core/nativeModules';
import { createCoreServices, type CoreServices } from '../core/services';
import { storageFailure } from '../core/storageFailure';
import { inProcessDemoLauncher } from '../demo-service/launcher';
import { APP_ORIGIN, APP_SCHEME, createAppProtocolHandler } from '../core/desktop/appProtocol';
import { DEEP_LINK_SCHEME, findDeepLinkInArgv, parseDeepLink } from '../core/desktop/deepLink';
import { routeMenuCommand, type MenuCommandId } from '../core/desktop/menuTemplate';
import { registersDeepLinks, userDataOverride } from '../core/desktop/runMode';
import { notificationFor } from '../core/desktop/notifications';
import { wordsFor } from '../core/desktop/words';
import { isPermissionGranted } from '../core/desktop/permissions';
import { isTrustedInvokeEvent } from '../core/desktop/trust';
import { WINDOW_STATE_FILE } from '../core/desktop/windowState';
import { bindContract, type IpcInvokeEventLike } from '../core/ipc/bindContract';
import { SUBSCRIPTION_IPC_CHANNEL } from '../core/ipc/channels';
import { RendererEventRelay } from '../core/ipc/eventRelay';
import { buildApplicationMenu } from './menu';
import { createElectronUpdates } from './updates';
import { electronPowerSource } from './power';
import { createMainWindow } from './window';

/** End-to-end test run: no OS integration (protocol registration), links recorded, not opened. */
const E2E = process.env.REPORT_DESK_E2E === '1';
const runMode = { packaged: app.isPackaged, env: process.env, e2e: E2E };
// REPORT_DESK_DATA_DIR, or ReportDesk-dev for a development run (core/desktop/runMode.ts). Set
// before anything reads userData — the single-instance lock is keyed on it too.
const dataDirOverride = userDataOverride(runMode, app.getPath('appData'));
if (dataDirOverride) app.setPath('userData', dataDirOverride);

const userDataDir = app.getPath('userData');
const logsDir = join(userDataDir, 'logs');
const logger = createLogger('main', rotatingFileSink(join(logsDir, 'report-desk.log')));
// dist/electron/main.cjs → dist/electron/preload.cjs and dist/renderer/.
const preloadPath = join(__dirname, 'preload.cjs');
const rendererDir = join(__dirname, '..', 'renderer');

// Electron's default for an uncaught error is a dialog with a stack trace; log it instead.
process.on('uncaughtException', (error) => {
  logger.error('Uncaught exception', { error: `${error.name}: ${error.message}`, stack: error.stack });
});
process.on('unhandledRejection', (reason) => {
  logger.error('Unhandled rejection', { error: reason instanceof Error ? reason.message : String(reason) });
});

/** `--lang CODE` (npm start -- --lang de): this run's language, any shipped or pseudo one. */
const runLanguage = languageGiven(languageArgument(process.argv));
// Chromium's own words (context menus, the spell checker) follow a real language too.
if (runLanguage && !runLanguage.includes('-X')) app.commandLine.appendSwitch('lang', runLanguage);

protocol.registerSchemesAsPrivileged([
  // codeCache (with standard): scripts' compiled code is kept between starts (Electron's
  // protocol docs; appProtocol.ts marks the hashed assets as kept for good).
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
]);
app.enableSandbox();

/** Links the window asked to open, in E2E runs (read by tests through electronApp.evaluate). */
const openedExternally: string[] = [];
if (E2E) (globalThis as { __reportDeskE2E?: unknown }).__reportDeskE2E = { openedExternally };

let services: CoreServices | null = null;
let unbindContract: (() => void) | null = null;
let mainWindow: BrowserWindow | null = null;
const relay = new RendererEventRelay();
/**
 * The words of the menu, dialogs and notifications: in the language the window shows, changed
 * with it. Until the core says which that is: this run's --lang, else English.
 */
let words: Words = wordsFor({ choice: 'system', systemLanguages: [], runLanguage }, CATALOGUES);

if (!app.requestSingleInstanceLock()) {
  // Another ReportDesk owns this data folder; it receives our argv (and deep link) and shows itself.
  app.quit();
} else {
  app.on('second-instance', (_event, argv) => {
    showMainWindow();
    handleDeepLink(findDeepLinkInArgv(argv));
  });
  // macOS delivers deep links as open-url, possibly before the app is ready.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    handleDeepLink(url);
    if (app.isReady()) showMainWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady() && services) showMainWindow();
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (attachEvent) => attachEvent.preventDefault());
  });
  app.on('will-quit', onWillQuit);
  app.whenReady().then(start, failToStart);
}

async function start(): Promise<void> {
  // Installers register the scheme too; a development run only when REPORT_DESK_REGISTER_LINKS=1.
  if (registersDeepLinks(runMode)) registerDeepLinkScheme();
  if (process.platform === 'win32') app.setAppUserModelId('com.reportdesk.app');

  // The window's page is served in the language main's words are in (set before the first frame).
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler(rendererDir, { documentLanguage: () => words.language }),
  );
  // Nothing but clipboard writes from the app page (Copy URL): see core/desktop/permissions.ts.
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback) =>
    callback(isPermissionGranted(permission, contents.getURL(), APP_ORIGIN)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionGranted(permission, requestingOrigin, APP_ORIGIN),
  );

  services = await createCoreServices({
    dataDir: userDataDir,
    // Electron's net.fetch honours the system proxy and the OS certificate store.
    fetch: (input, init) => net.fetch(input instanceof URL ? input.href : input, init),
    openExternal,
    saveExport,
    logger: logger.child('core'),
    demoLauncher: inProcessDemoLauncher,
    // electron-updater over the signed feed; a development run never checks (core/updates).
    updates: (context) => createElectronUpdates(context, userDataDir),
    // Keeps "Keep available offline" profiles current; the daily full sync waits on battery.
    keepOffline: { power: electronPowerSource(powerMonitor) },
    // Test crash points (REPORT_DESK_CRASH_AT) only in a development run, never once packaged.
    crashPointsFrom: app.isPackaged ? undefined : process.env,
    language: { systemLanguages: () => app.getPreferredSystemLanguages(), runLanguage },
  });
  applyLanguage(services.language.state());
  unbindContract = bindContract(ipcMain, services.handlers, {
    isTrustedSender,
    logger: logger.child('ipc'),
  });
  ipcMain.on(SUBSCRIPTION_IPC_CHANNEL, (event, eventName: unknown, listening: unknown) => {
    if (isTrustedSender(event)) relay.setListening(eventName, listening);
  });
  services.events.subscribe((event, payload) => {
    relay.deliver(event, payload);
    if (event === 'language:changed') applyLanguage(payload as LanguageState);
    const notification = notificationFor(event, payload, mainWindow?.isFocused() ?? false, words);
    if (notification && Notification.isSupported()) {
      const shown = new Notification(notification);
      shown.on('click', showMainWindow);
      shown.show();
    }
  });

  showMainWindow();
  handleDeepLink(pendingLink ?? findDeepLinkInArgv(process.argv));
  pendingLink = null;
  logger.info('ReportDesk started', { version: app.getVersion(), packaged: app.isPackaged });
}

/** The menu, the About panel and later dialogs in the language the window shows (rebuilt on a change). */
function applyLanguage(state: LanguageState): void {
  words = wordsFor(state, CATALOGUES);
  const appName = words('app.name');
  app.setAboutPanelOptions({ applicationName: appName, applicationVersion: app.getVersion() });
  Menu.setApplicationMenu(
    buildApplicationMenu(
      process.platform,
      words,
      { packaged: app.isPackaged, appName, checkForUpdates: services?.updates.status().managed ?? false },
      runMenuCommand,
    ),
  );
}

/** A `--lang` value: a shipped or pseudo language; anything else is logged and ignored. */
function languageGiven(code: string | undefined): Language | null {
  if (code === undefined) return null;
  if (isLanguage(code)) return code;
  logger.warn('Ignored --lang: not a language ReportDesk has', { lang: code.slice(0, 20) });
  return null;
}

function failToStart(thrown: unknown): void {
  // The data folder (and the language chosen there) could not be read: the system's language.
  words = wordsFor(
    { choice: 'system', systemLanguages: app.getPreferredSystemLanguages(), runLanguage },
    CATALOGUES,
  );
  // A full disk or a read-only data folder is told as such, not as "could not open its data".
  const error =
    storageFailure(thrown, { folder: userDataDir, place: 'data_folder' })?.error ?? toAppError(thrown);
  logger.error('ReportDesk could not start', {
    error: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown),
    stack: thrown instanceof Error ? thrown.stack : undefined,
  });
  // A native module built for Node (npm run cli / the tests ran last) has its own message.
  const wrongBuild = nativeModuleFailure(thrown, 'electron');
  const message = wrongBuild
    ? errorSentence(words, wrongBuild)
    : error.kind === 'internal'
      ? words('main.start_failed.data_folder', { folder: userDataDir, logs: logsDir })
      : errorSentence(words, error);
  dialog.showErrorBox(words('main.start_failed.title'), message);
  app.exit(1);
}

function isTrustedSender(event: IpcInvokeEventLike): boolean {
  const windowContentsId = mainWindow && !mainWindow.isDestroyed() ? mainWindow.webContents.id : null;
  return isTrustedInvokeEvent(event, { appOrigin: APP_ORIGIN, windowContentsId });
}

function showMainWindow(): void {
  if (!app.isReady() || !services) return;
  if (!mainWindow || mainWindow.isDestroyed()) {
    const window = createMainWindow({
      preloadPath,
      windowStateFile: join(userDataDir, WINDOW_STATE_FILE),
      logger: logger.child('window'),
      title: words('app.name'),
      openExternal: (url) => void openExternal(url).catch(() => undefined),
      onPageChanged: () => relay.pageChanged(),
    });
    window.on('closed', () => {
      if (mainWindow === window) {
        mainWindow = null;
        relay.attach(null);
      }
    });
    mainWindow = window;
    relay.attach(window.webContents);
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

/** A link that arrived before the core was up (macOS open-url at launch). */
let pendingLink: string | null = null;

function handleDeepLink(url: string | null): void {
  if (url === null) return;
  if (!services) {
    pendingLink = url;
    return;
  }
  if (!parseDeepLink(url)) {
    logger.warn('Ignored a link ReportDesk does not understand', { url: url.slice(0, 200) });
    return;
  }
  // The core parses the link and switches to its profile (core/gateway links:open). Held by
  // the relay until the page listens, so a link that started the app is not lost.
  void services.handlers['links:open']({ url }).then(
    ({ path }) => relay.deliver('app:navigate', { path }),
    (thrown: unknown) => {
      const error = toAppError(thrown);
      logger.warn('A link could not be opened', { kind: error.kind });
      relay.deliver('app:navigate', { path: '/reports', notice: error });
    },
  );
}

/** The save dialog for an export; the file is written atomically with mode 0600. */
async function saveExport(fileName: string, format: 'csv' | 'json', content: string): Promise<string | null> {
  const options = {
    title: words('main.export_dialog.title'),
    defaultPath: join(app.getPath('downloads'), fileName),
    filters: [
      format === 'csv'
        ? { name: words('main.export_dialog.filter_csv'), extensions: ['csv'] }
        : { name: words('main.export_dialog.filter_json'), extensions: ['json'] },
    ],
  };
  const chosen =
    mainWindow && !mainWindow.isDestroyed()
      ? await dialog.showSaveDialog(mainWindow, options)
      : await dialog.showSaveDialog(options);
  if (chosen.canceled || !chosen.filePath) return null;
  writeExportFile(chosen.filePath, content);
  return chosen.filePath;
}

function runMenuCommand(command: MenuCommandId): void {
  const route = routeMenuCommand(command);
  if (route.target === 'renderer') {
    showMainWindow();
    relay.deliver('app:command', { command: route.command });
    return;
  }
  switch (route.command) {
    case 'open-data-folder':
      void openFolder(userDataDir);
      break;
    case 'open-logs-folder':
      void openFolder(logsDir);
      break;
    case 'about':
      app.showAboutPanel();
      break;
    case 'check-for-updates':
      // The answer (or why there is none) is on the Settings screen.
      showMainWindow();
      relay.deliver('app:navigate', { path: '/settings' });
      void services?.updates.check();
      break;
  }
}

async function openFolder(folder: string): Promise<void> {
  const problem = await shell.openPath(folder);
  if (problem) {
    logger.warn('Could not open a folder', { folder, problem });
    dialog.showErrorBox(
      words('main.open_folder_failed.title'),
      words('main.open_folder_failed.body', { folder, problem }),
    );
  }
}

async function openExternal(url: string): Promise<void> {
  const verdict = checkExternalUrl(url);
  if (!verdict.ok) throw new AppFailure(wordedError(externalUrlRefusal(verdict.reason)));
  const safe = verdict.href;
  if (E2E) {
    openedExternally.push(safe);
    return;
  }
  await shell.openExternal(safe);
}

function registerDeepLinkScheme(): void {
  // From a development checkout the OS must start Electron with this script as the argument.
  const registered =
    process.defaultApp && process.argv.length >= 2
      ? app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(process.argv[1])])
      : app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  if (!registered) logger.warn('Could not register the reportdesk:// link handler');
}

let shutDown = false;
let shuttingDown = false;
/** Closes the core (probes, demo service, SQLite) before the process ends. */
function onWillQuit(event: Electron.Event): void {
  if (shutDown) return;
  event.preventDefault();
  if (shuttingDown) return;
  shuttingDown = true;
  unbindContract?.();
  // A downloaded update is installed as the app quits (AppImage, Windows; macOS by itself).
  try {
    services?.updates.beforeQuit();
  } catch (error) {
    logger.error('Installing the update on quit failed', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  // A core that cannot close must not keep the app alive forever.
  const limit = new Promise<void>((done) => setTimeout(done, 5_000).unref());
  void Promise.race([services?.close() ?? Promise.resolve(), limit])
    .catch((error: unknown) => {
      logger.error('Closing the core failed', {
        error: error instanceof Error ? error.message : String(error),
      });
    })
    .finally(() => {
      shutDown = true;
      app.exit(0);
    });
}
