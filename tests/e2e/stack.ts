/**
 * Starts what the UI talks to, per test file: the reference Report Service, a temp data dir,
 * the REAL core (keychain via keytar, SQLite cache) and the preview server over dist/renderer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import {
  createCoreServices,
  type CoreServices,
  type CoreServicesOptions,
} from '../../electron/core/services';
import { inProcessDemoLauncher } from '../../electron/demo-service/launcher';
import { startDemoService, type DemoAccount, type DemoService } from '../../electron/demo-service/server';
import { startPreviewServer, type PreviewServer } from '../../electron/preview/server';
import { settledLanguage, type Language } from '../../shared/i18n/languages';

export const ALPHA: DemoAccount = {
  apiKey: 'e2e-alpha-key-7f3a',
  account: { id: 101, name: 'Alpha Team', email: 'alpha@example.test', plan: 'business', seats: 5 },
};
export const BETA: DemoAccount = {
  apiKey: 'e2e-beta-key-9c1d',
  account: { id: 202, name: 'Beta Studio', email: 'beta@example.test', plan: 'starter' },
};

const rendererDir = resolve(import.meta.dirname, '../../dist/renderer');

export interface Stack {
  service: DemoService;
  core: CoreServices;
  preview: PreviewServer;
  dataDir: string;
  /** Stops the service (the network "goes down"); the port stays known for restartService. */
  stopService(): Promise<void>;
  /** Starts the service again on the same port with the same data. */
  restartService(): Promise<DemoService>;
  stop(): Promise<void>;
}

/** Adds the profile "Alpha" (ALPHA's key, on the stack's service), the one most specs start from. */
export function addAlphaProfile(stack: Stack) {
  return stack.core.handlers['profiles:add']({
    name: 'Alpha',
    baseUrl: stack.service.baseUrl,
    apiKey: ALPHA.apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
}

export interface StackOptions extends Pick<CoreServicesOptions, 'updates'> {
  /** The language the app starts in, as `npm run preview -- --lang CODE` (tests/e2e/languages.spec.ts). */
  language?: Language;
}

/**
 * `updates`: the app's updater for this core (tests/e2e/updates.spec.ts); none by default, as in
 * the preview. `language`: this run's --lang; English (the browser's) by default.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error('dist/renderer is missing: run `npx vite build` before the e2e tests.');
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'reportdesk-e2e-'));
  const serviceData = join(dataDir, 'service.json');
  const serviceOptions = { accounts: [ALPHA, BETA], reportsPerAccount: 60, seed: 7, dataFile: serviceData };
  let service = await startDemoService(serviceOptions);
  const port = Number(new URL(service.baseUrl).port);
  // A short probe interval so that coming back online is noticed within the test's patience.
  const core = await createCoreServices({
    dataDir: join(dataDir, 'app'),
    probeIntervalMs: 1_000,
    demoLauncher: inProcessDemoLauncher,
    updates: options.updates,
    language: { runLanguage: options.language ?? null },
  });
  // As electron/preview/run.ts serves it: the page in the language the core settled on.
  const preview = await startPreviewServer({
    handlers: core.handlers,
    events: core.events,
    rendererDir,
    documentLanguage: () => settledLanguage(core.language.state()),
  });
  let running = true;
  const stack: Stack = {
    get service() {
      return service;
    },
    core,
    preview,
    dataDir,
    async stopService() {
      if (running) await service.stop();
      running = false;
    },
    async restartService() {
      service = await startDemoService({ ...serviceOptions, port });
      running = true;
      return service;
    },
    async stop() {
      await preview.stop().catch(() => undefined);
      await core.close().catch(() => undefined);
      if (running) await service.stop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}

const SHOTS = resolve(import.meta.dirname, '../../test-results/screenshots');

/** Saves the screen in light and dark, as <name>-light.png and <name>-dark.png. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // Let transitions and the skeleton shimmer settle on the new palette.
    // A string, not a function: this file is type-checked without the DOM library.
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    // Toasts are transient; left over from earlier steps they would only clutter the picture.
    await page.screenshot({
      path: join(SHOTS, `${name}-${colorScheme}.png`),
      style: '.toasts { display: none; }',
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Runs axe-core over the page (or a part of it) in light and in dark; no violation is allowed. */
export async function expectAccessible(page: Page, what: string, include?: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    let builder = new AxeBuilder({ page });
    if (include) builder = builder.include(include);
    const { violations } = await builder.analyze();
    const summary = violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')} — ${v.help}`,
    );
    expect(summary, `${what} in ${colorScheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
