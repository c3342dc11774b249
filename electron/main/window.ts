/**
 * The main window and its security posture (Electron's checklist): isolated, sandboxed, no
 * Node in the page, no navigation away from the app, no new windows, no <webview>. The policy
 * decisions are pure functions in electron/core/desktop; this file only wires them.
 */
import { BrowserWindow, nativeTheme, screen } from 'electron';
import type { Logger } from '../core/log';
import { APP_ENTRY_URL, APP_ORIGIN } from '../core/desktop/appProtocol';
import { externalUrlToOpen, isNavigationAllowed } from '../core/desktop/navigation';
import {
  MIN_WINDOW_HEIGHT,
  MIN_WINDOW_WIDTH,
  clampToDisplays,
  loadWindowState,
  saveWindowState,
  type DisplayArea,
} from '../core/desktop/windowState';

export interface MainWindowOptions {
  preloadPath: string;
  /** Until the page names itself (document.title). */
  title: string;
  windowStateFile: string;
  logger: Logger;
  /** An http(s) link the page tried to open in a new window: hand it to the system browser. */
  openExternal: (url: string) => void;
  /** The page is being replaced by a new document (its event listeners are gone). */
  onPageChanged: () => void;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const { logger } = options;
  const primary = screen.getPrimaryDisplay();
  // The primary display first: clampToDisplays centres a lost window on the first one.
  const displays: DisplayArea[] = [
    primary,
    ...screen.getAllDisplays().filter((d) => d.id !== primary.id),
  ].map((d) => d.workArea);
  const state = clampToDisplays(loadWindowState(options.windowStateFile), displays);

  const window = new BrowserWindow({
    x: state.x,
    y: state.y,
    width: state.width,
    height: state.height,
    minWidth: MIN_WINDOW_WIDTH,
    minHeight: MIN_WINDOW_HEIGHT,
    title: options.title,
    show: false,
    // Matches the page's first paint, so there is no white flash in dark mode.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1f2328' : '#ffffff',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
    },
  });

  window.once('ready-to-show', () => {
    if (state.maximized) window.maximize();
    window.show();
  });

  const contents = window.webContents;
  const refuseNavigation = (details: { url: string; preventDefault(): void }) => {
    if (isNavigationAllowed(details.url, APP_ORIGIN)) return;
    details.preventDefault();
    logger.warn('Blocked a navigation away from the app', { url: details.url.slice(0, 200) });
  };
  contents.on('will-navigate', refuseNavigation);
  contents.on('will-redirect', refuseNavigation);
  // will-navigate covers the top frame only; an iframe the page never should have gets the same rule.
  contents.on('will-frame-navigate', (details) => {
    if (!details.isMainFrame) refuseNavigation(details);
  });
  contents.setWindowOpenHandler(({ url }) => {
    const external = externalUrlToOpen(url);
    if (external) options.openExternal(external);
    else logger.warn('Refused to open a window', { url: url.slice(0, 200) });
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) options.onPageChanged();
  });
  contents.on('render-process-gone', (_event, details) => {
    logger.error('The window stopped unexpectedly', { reason: details.reason, exitCode: details.exitCode });
  });

  window.on('close', () => {
    const bounds = window.getNormalBounds();
    saveWindowState(options.windowStateFile, { ...bounds, maximized: window.isMaximized() });
  });

  void window.loadURL(APP_ENTRY_URL).catch((error: unknown) => {
    logger.error('The window could not load the app', {
      error: error instanceof Error ? error.message : String(error),
    });
  });
  return window;
}
