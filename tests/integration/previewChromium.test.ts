/**
 * The preview bridge in a real browser: Debian's Chromium, driven by Playwright, opens the
 * printed URL and uses window.reportDesk exactly as the renderer does.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ProfilesState, ReportDeskBridge } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import { EventHub } from '../../electron/core/events';
import { PREVIEW_UNREACHABLE } from '../../electron/preview/bridgeScript';
import { startPreviewServer, type PreviewServer } from '../../electron/preview/server';
import { CHROMIUM_LAUNCH_OPTIONS } from '../helpers/chromium';
import { unimplementedHandlers } from '../helpers/fakeHandlers';

const PROFILES: ProfilesState = {
  profiles: [
    {
      id: 'demo',
      name: 'Demo',
      baseUrl: 'http://127.0.0.1:9/',
      allowInsecureHttp: false,
      keyHint: 'c0de',
      hasKey: true,
      keyStorage: 'session',
      demo: true,
    },
  ],
  activeId: 'demo',
};

/** The page's globals, seen from these callbacks (the Node type-check has no DOM lib). */
interface PageGlobals {
  reportDesk: ReportDeskBridge;
  appSawBridge?: string;
  received: unknown[];
}
// Only ever used inside page.evaluate callbacks, which run in the browser.
declare const window: PageGlobals;

/** Resolves the first time someone subscribes: the browser's event stream is then attached. */
class WatchedHub extends EventHub {
  private subscribed!: () => void;
  readonly firstSubscriber = new Promise<void>((resolve) => (this.subscribed = resolve));
  override subscribe(...args: Parameters<EventHub['subscribe']>): () => void {
    const unsubscribe = super.subscribe(...args);
    this.subscribed();
    return unsubscribe;
  }
}

let root: string;
let browser: Browser;
let server: PreviewServer;
const hub = new WatchedHub();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'reportdesk-preview-chromium-'));
  await mkdir(join(root, 'assets'));
  await writeFile(
    join(root, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>Preview test</title>' +
      '<script type="module" src="./assets/app.js"></script></head><body></body></html>',
  );
  await writeFile(join(root, 'assets', 'app.js'), 'window.appSawBridge = typeof window.reportDesk;\n');
  const handlers = unimplementedHandlers();
  handlers['profiles:list'] = async () => PROFILES;
  server = await startPreviewServer({ handlers, events: hub, rendererDir: root });
  browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(root, { recursive: true, force: true });
});

it('runs the renderer against the bridge in Chromium: invoke, events, and a lost server', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });

  const response = await page.goto(server.url);
  expect(response?.status()).toBe(200);
  // The token moved from the link into this tab's session storage and left the address bar.
  expect(page.url()).toBe(`${server.origin}/`);
  expect(await context.cookies()).toEqual([]);
  await page.waitForFunction(() => window.appSawBridge !== undefined);
  expect(await page.evaluate(() => window.appSawBridge)).toBe('object');

  const listed = await page.evaluate(() => window.reportDesk.invoke('profiles:list'));
  expect(listed).toEqual({ ok: true, value: PROFILES });

  await page.evaluate(() => {
    const received: unknown[] = [];
    window.received = received;
    window.reportDesk.on('profiles:changed', (payload) => received.push(payload));
  });
  await hub.firstSubscriber;
  hub.emit('profiles:changed', PROFILES);
  await page.waitForFunction(() => window.received.length > 0);
  expect(await page.evaluate(() => window.received)).toEqual([PROFILES]);

  // Without the token (a new tab, or storage cleared) the server refuses, and the bridge turns
  // that into a sentence.
  await page.evaluate('sessionStorage.clear()');
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.appSawBridge !== undefined);
  const refused = (await page.evaluate(() => window.reportDesk.invoke('profiles:list'))) as Result<unknown>;
  expect(refused.ok).toBe(false);
  expect(!refused.ok && refused.error.message).toMatch(/HTTP 403.*npm run preview/);

  await server.stop();
  const unreachable = await page.evaluate(() => window.reportDesk.invoke('profiles:list'));
  expect(unreachable).toEqual({
    ok: false,
    error: PREVIEW_UNREACHABLE,
  });
  expect(blocked).toEqual([]);
  await context.close();
});
