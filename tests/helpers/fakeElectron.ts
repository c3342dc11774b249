/**
 * A fake of the Electron module for the main process's wiring tests (electron/main/*.ts), where
 * the runtime binary cannot be installed. It keeps Electron's documented rules where a slip would
 * only show on a user's machine: which APIs work before or after the ready event (it throws where
 * Electron does), and what crosses to the renderer (structured clones). One per test file:
 *
 *   vi.mock('electron', async () => (await import('../../helpers/fakeElectron')).fake.electron);
 *   import { fake } from '../../helpers/fakeElectron';
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Listener = (...args: unknown[]) => unknown;

function createFakeElectron() {
  const on = (map: Map<string, Listener[]>) => (name: string, listener: Listener) => {
    map.set(name, [...(map.get(name) ?? []), listener]);
  };
  const emit = (map: Map<string, Listener[]>, name: string, ...args: unknown[]) =>
    (map.get(name) ?? []).map((listener) => listener(...args));

  const appEvents = new Map<string, Listener[]>();
  const powerEvents = new Map<string, Listener[]>();
  const paths = new Map<string, string>();
  let readyResolve: () => void = () => {};
  const ready = new Promise<void>((resolve) => (readyResolve = resolve));
  let isReady = false;
  // Electron's ordering rules (electron.d.ts and its errors): some APIs only before the ready
  // event, others only after it. The fake throws where Electron does, so wiring that calls them
  // in the wrong order fails here rather than on a user's machine.
  const beforeReady = (what: string) => {
    if (isReady) throw new Error(`${what} can only be called before app is ready`);
  };
  const afterReady = (what: string, message = `${what} cannot be used before the app 'ready' event`) => {
    if (!isReady) throw new Error(message);
  };
  // ipcMain.handle's reply and webContents.send's arguments cross to the renderer through the
  // Structured Clone Algorithm: prototypes are dropped, a Function/Promise/Symbol throws.
  const crossProcess = <T>(value: T): T => {
    try {
      return structuredClone(value);
    } catch {
      throw new Error('An object could not be cloned.');
    }
  };

  class FakeWebContents {
    static nextId = 1;
    readonly id = FakeWebContents.nextId++;
    readonly events = new Map<string, Listener[]>();
    readonly sent: unknown[][] = [];
    windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
    on = on(this.events);
    send(...args: unknown[]) {
      this.sent.push(crossProcess(args));
    }
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      this.windowOpenHandler = handler;
    }
  }

  class FakeBrowserWindow {
    static all: FakeBrowserWindow[] = [];
    readonly events = new Map<string, Listener[]>();
    readonly webContents = new FakeWebContents();
    loadedUrl: string | null = null;
    shown = false;
    focused = false;
    destroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      FakeBrowserWindow.all.push(this);
    }
    on = on(this.events);
    once = on(this.events);
    loadURL(url: string) {
      this.loadedUrl = url;
      return Promise.resolve();
    }
    isDestroyed() {
      return this.destroyed;
    }
    isMinimized() {
      return false;
    }
    isMaximized() {
      return false;
    }
    isFocused() {
      return this.focused;
    }
    show() {
      this.shown = true;
    }
    focus() {
      this.focused = true;
    }
    restore() {}
    maximize() {}
    getNormalBounds() {
      return { x: 10, y: 20, width: 1000, height: 700 };
    }
  }

  const ipcHandlers = new Map<string, Listener>();
  const ipcListeners = new Map<string, Listener[]>();
  const notifications: { title: string; body: string }[] = [];
  const state = {
    lockGranted: true,
    exitCode: null as number | null,
    quitCalled: false,
    protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
    privilegedSchemes: [] as unknown[],
    menuTemplate: [] as {
      label?: string;
      submenu?: { id?: string; role?: string; label?: string; click?: () => void }[];
    }[],
    menusSet: 0,
    permissionRequest: null as null | ((...args: unknown[]) => void),
    permissionCheck: null as null | ((...args: unknown[]) => boolean),
    registeredProtocols: [] as string[],
    errorBoxes: [] as string[][],
    /** What the next save dialog answers; null = the user cancels. */
    saveDialogPath: null as string | null,
    saveDialogOptions: [] as { defaultPath?: string; filters?: unknown }[],
  };

  const electron = {
    app: {
      isPackaged: false,
      // Documented to be set before ready (sessionData; the single-instance lock reads userData).
      setPath: (name: string, value: string) => {
        beforeReady(`app.setPath('${name}')`);
        paths.set(name, value);
      },
      getPath: (name: string) => paths.get(name) ?? join(tmpdir(), `unused-${name}`),
      enableSandbox: () => beforeReady('app.enableSandbox()'),
      requestSingleInstanceLock: () => state.lockGranted,
      quit: () => {
        state.quitCalled = true;
      },
      exit: (code: number) => {
        state.exitCode = code;
      },
      on: on(appEvents),
      whenReady: () => ready,
      isReady: () => isReady,
      setAppUserModelId: () => {},
      setAboutPanelOptions: () => {},
      showAboutPanel: () => {},
      getVersion: () => '0.0.0-test',
      // The strictest reading of Electron's docs, which do not say it works before ready.
      getPreferredSystemLanguages: () => {
        afterReady('app.getPreferredSystemLanguages()');
        return ['en-GB', 'de-DE'];
      },
      setAsDefaultProtocolClient: (scheme: string) => {
        state.registeredProtocols.push(scheme);
        return true;
      },
    },
    dialog: {
      showErrorBox: (...args: string[]) => state.errorBoxes.push(args),
      // Electron: showSaveDialog([window, ]options) resolves { canceled, filePath }, and
      // filePath is '' when cancelled (https://www.electronjs.org/docs/latest/api/dialog).
      showSaveDialog: async (...args: unknown[]) => {
        state.saveDialogOptions.push(args[args.length - 1] as { defaultPath?: string });
        const chosen = state.saveDialogPath;
        return { canceled: chosen === null, filePath: chosen ?? '' };
      },
    },
    ipcMain: {
      handle: (channel: string, listener: Listener) => ipcHandlers.set(channel, listener),
      removeHandler: (channel: string) => ipcHandlers.delete(channel),
      on: on(ipcListeners),
    },
    Menu: {
      buildFromTemplate: (template: typeof state.menuTemplate) => {
        state.menuTemplate = template;
        return { template };
      },
      setApplicationMenu: () => {
        state.menusSet += 1;
      },
    },
    // Electron's net.fetch: only after ready (it is session.defaultSession.fetch), and with
    // redirect: 'manual' it rejects instead of returning the 3xx (tests/helpers/electronNet.ts).
    net: {
      fetch: async (input: string | Request, init?: RequestInit) => {
        afterReady('net', 'Session can only be received when app is ready');
        const { electronLikeNetFetch } = await import('./electronNet');
        return electronLikeNetFetch(input, init);
      },
    },
    // powerMonitor (https://www.electronjs.org/docs/latest/api/power-monitor):
    // isOnBatteryPower() answers on every platform; 'on-ac' and 'on-battery' are emitted on macOS
    // and Windows only. Earlier versions of that page said the module cannot be used before the
    // app's 'ready' event; the fake keeps that rule, as the strictest reading.
    powerMonitor: {
      battery: false,
      isOnBatteryPower() {
        afterReady('powerMonitor');
        return this.battery;
      },
      on(name: string, listener: Listener) {
        afterReady('powerMonitor');
        on(powerEvents)(name, listener);
      },
      removeListener(name: string, listener: Listener) {
        powerEvents.set(
          name,
          (powerEvents.get(name) ?? []).filter((known) => known !== listener),
        );
      },
    },
    Notification: class {
      static isSupported() {
        return true;
      }
      constructor(private readonly content: { title: string; body: string }) {}
      on() {}
      show() {
        notifications.push(this.content);
      }
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => {
        if (isReady)
          throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
        // Electron's protocol docs: codeCache "only works when `standard` is also set to true", and
        // since electron/electron#40544 the call throws for a non-standard scheme asking for it.
        for (const { privileges } of schemes as {
          privileges?: { codeCache?: boolean; standard?: boolean };
        }[])
          if (privileges?.codeCache && !privileges.standard)
            throw new Error(
              'Code cache can only be enabled when the custom scheme is registered as standard scheme.',
            );
        state.privilegedSchemes.push(...schemes);
      },
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => {
        // protocol.handle registers on session.defaultSession.protocol.
        afterReady('protocol.handle', 'Session can only be received when app is ready');
        state.protocolHandlers.set(scheme, handler);
      },
    },
    session: {
      get defaultSession() {
        afterReady('session', 'Session can only be received when app is ready');
        return {
          setPermissionRequestHandler: (h: (...args: unknown[]) => void) => (state.permissionRequest = h),
          setPermissionCheckHandler: (h: (...args: unknown[]) => boolean) => (state.permissionCheck = h),
        };
      },
    },
    shell: { openExternal: async () => {}, openPath: async () => '' },
    BrowserWindow: FakeBrowserWindow,
    nativeTheme: { shouldUseDarkColors: false },
    screen: {
      getPrimaryDisplay: () => {
        afterReady("The 'screen' module");
        return { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } };
      },
      getAllDisplays: () => {
        afterReady("The 'screen' module");
        return [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }];
      },
    },
  };

  return {
    electron,
    state,
    appEvents,
    emitApp: (name: string, ...args: unknown[]) => emit(appEvents, name, ...args),
    emitWindow: (w: FakeBrowserWindow, name: string, ...args: unknown[]) => emit(w.events, name, ...args),
    emitContents: (w: FakeBrowserWindow, name: string, ...args: unknown[]) =>
      emit(w.webContents.events, name, ...args),
    emitIpc: (name: string, ...args: unknown[]) => emit(ipcListeners, name, ...args),
    emitPower: (name: string) => emit(powerEvents, name),
    powerEvents,
    ipcHandlers,
    /** What ipcRenderer.invoke resolves to: the handler's reply, structured-cloned. */
    invoke: async (channel: string, event: unknown, ...args: unknown[]) => {
      const handler = ipcHandlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return crossProcess(await handler(event, ...args.map((arg) => crossProcess(arg))));
    },
    crossProcess,
    notifications,
    windows: FakeBrowserWindow.all,
    makeReady: () => {
      isReady = true;
      readyResolve();
    },
  };
}

/** This test file's Electron: the module main.ts imports, and the controls the tests use. */
export const fake = createFakeElectron();
