/** The Electron security checklist, read from the running app. */
import { CONTENT_SECURITY_POLICY } from '../../electron/core/desktop/csp';
import { expect, skipWithoutElectron, test } from './fixtures';

skipWithoutElectron();

/**
 * The page globals this spec touches (the Node-side tsconfig has no DOM types). Functions given
 * to evaluate() are serialised into the page, so each one casts globalThis itself.
 */
interface PageGlobals {
  reportDesk: { invoke(channel: string): Promise<unknown> };
  location: { origin: string; href: string };
  open(url: string): unknown;
  require?: unknown;
  process?: unknown;
}

interface LastWebPreferences {
  contextIsolation?: boolean;
  sandbox?: boolean;
  nodeIntegration?: boolean;
  webSecurity?: boolean;
  webviewTag?: boolean;
}

test('the window is isolated, sandboxed and without Node', async ({ electronApp, appWindow }) => {
  // getLastWebPreferences is missing from Electron's typings but present at run time.
  const preferences = await electronApp.evaluate(({ BrowserWindow }) => {
    const contents = BrowserWindow.getAllWindows()[0].webContents as unknown as {
      getLastWebPreferences(): LastWebPreferences;
    };
    const p = contents.getLastWebPreferences();
    return {
      contextIsolation: p.contextIsolation,
      sandbox: p.sandbox,
      nodeIntegration: p.nodeIntegration,
      webSecurity: p.webSecurity,
      webviewTag: p.webviewTag,
    };
  });
  expect(preferences).toEqual({
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    webviewTag: false,
  });
  // And as the page sees it: no Node, only the bridge.
  const page = await appWindow.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    return {
      require: typeof g.require,
      process: typeof g.process,
      bridge: Object.keys(g.reportDesk).sort(),
      origin: g.location.origin,
    };
  });
  expect(page).toEqual({
    require: 'undefined',
    process: 'undefined',
    bridge: ['invoke', 'on'],
    origin: 'app://reportdesk',
  });
});

test('app:// responses carry the CSP header, and the page cannot eval', async ({ appWindow }) => {
  const header = await appWindow.evaluate(async () => {
    const response = await fetch('/index.html');
    return response.headers.get('content-security-policy');
  });
  expect(header).toBe(CONTENT_SECURITY_POLICY);
  const evalOutcome = await appWindow.evaluate(() => {
    try {
      return String(new Function('return 1 + 1')());
    } catch (error) {
      return (error as Error).name;
    }
  });
  expect(evalOutcome).toBe('EvalError');
});

test('a request for a channel outside the contract is refused by the bridge', async ({ appWindow }) => {
  const answer = await appWindow.evaluate(() =>
    (globalThis as unknown as PageGlobals).reportDesk.invoke('fs:read'),
  );
  expect(answer).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
});

test('navigation to another origin is blocked', async ({ electronApp, appWindow }) => {
  const startUrl = appWindow.url();
  expect(startUrl).toMatch(/^app:\/\/reportdesk\//);
  // Listeners run in order: ours (registered at window creation) has decided before this one looks.
  const verdict = electronApp.evaluate(
    ({ BrowserWindow }) =>
      new Promise<{ url: string; prevented: boolean }>((done) => {
        BrowserWindow.getAllWindows()[0].webContents.once('will-navigate', (event) =>
          done({ url: event.url, prevented: event.defaultPrevented }),
        );
      }),
  );
  await appWindow.evaluate(() => {
    (globalThis as unknown as PageGlobals).location.href = 'https://example.invalid/phishing';
  });
  expect(await verdict).toEqual({ url: 'https://example.invalid/phishing', prevented: true });
  expect(appWindow.url()).toBe(startUrl);
});

test('window.open is denied; an http(s) link goes to the system browser instead', async ({
  electronApp,
  appWindow,
}) => {
  const opened = await appWindow.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    return [g.open('https://example.com/docs') === null, g.open('file:///etc/passwd') === null];
  });
  expect(opened).toEqual([true, true]);
  await expect
    .poll(() =>
      electronApp.evaluate(
        () =>
          (globalThis as unknown as { __reportDeskE2E: { openedExternally: string[] } }).__reportDeskE2E
            .openedExternally,
      ),
    )
    .toEqual(['https://example.com/docs']);
  expect(await electronApp.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
});
