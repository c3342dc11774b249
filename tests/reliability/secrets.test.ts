/**
 * Where the API key and report passwords may NOT end up, after a realistic session with the
 * real parts (reference service on 127.0.0.1, SQLite cache, the OS keychain when run under
 * scripts/with-keyring.sh, Debian's Chromium on the browser preview):
 *  - the data dir (profiles, cache + WAL, logs written by a rotating file sink), the in-memory
 *    log lines, and every value a front end received;
 *  - the files electron-builder.yml would package (run through electron-builder's own matcher),
 *    which must also leave out tests, the preview and the CLI;
 *  - the browser's storage: localStorage, sessionStorage, IndexedDB, cookies, and the page.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FileMatcher } from 'app-builder-lib/out/fileMatcher';
import { load as loadYaml } from 'js-yaml';
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../shared/errors';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { createLogger, memorySink, rotatingFileSink, type LogSink } from '../../electron/core/log';
import { startPreviewServer } from '../../electron/preview/server';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { findSecrets, filesUnder } from '../helpers/secrets';
import { testKeyStore } from '../helpers/keychain';
import { tempCore, type TempCore } from './helpers';
import { CHROMIUM_LAUNCH_OPTIONS } from '../helpers/chromium';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const unique = () => randomBytes(9).toString('base64url');
const API_KEY = `rd-live-${unique()}`;
const PASSWORD_CREATE = `pw-create-${unique()}`;
const PASSWORD_UPDATE = `pw-update-${unique()}`;
const SECRETS = [API_KEY, PASSWORD_CREATE, PASSWORD_UPDATE];

const ACCOUNT = { apiKey: API_KEY, account: { id: 7, name: 'Secret Keeper', email: 'keeper@example.test' } };

describe('a realistic session through the gateway', () => {
  let service: DemoService;
  let app: TempCore;
  const memory = memorySink();
  /** Everything a front end received: it must not carry a secret either. */
  const seen: string[] = [];

  async function call(channel: string, input?: unknown): Promise<Result<unknown>> {
    const result = await dispatch(app.core.handlers, channel, input);
    seen.push(JSON.stringify(result));
    return result;
  }

  beforeAll(async () => {
    service = await startDemoService({ accounts: [ACCOUNT], reportsPerAccount: 150 });
    const keychain = testKeyStore();
    let fileSink: LogSink = () => {};
    app = await tempCore('secrets', {
      keyStore: keychain.store,
      // The data dir exists only once the core is built; lines before that go to memory alone.
      logger: createLogger(
        'session',
        (line) => {
          memory(line);
          fileSink(line);
        },
        'debug',
      ),
    });
    // Small files, so rotation happens and rotated generations are searched too.
    fileSink = rotatingFileSink(join(app.dataDir, 'logs', 'report-desk.log'), 500, 3);
  });

  afterAll(async () => {
    await app?.close();
    await service?.stop();
  });

  it('leaves no key or password in the data dir, the logs or any answer', async () => {
    const added = await call('profiles:add', {
      name: 'Work',
      baseUrl: service.baseUrl,
      apiKey: API_KEY,
      allowInsecureHttp: false,
    });
    expect(added.ok).toBe(true);
    expect((await call('reports:list', { per_page: 100 })).ok).toBe(true);
    const created = await call('reports:create', {
      url: 'https://www.contoso.com/secret-plans',
      privacy: 2,
      password: PASSWORD_CREATE,
    });
    expect(created.ok).toBe(true);
    const id = (created as { value: { id: string } }).value.id;
    expect(
      (await call('reports:update', { id, changes: { privacy: 2, password: PASSWORD_UPDATE } })).ok,
    ).toBe(true);
    expect((await call('reports:get', { id })).ok).toBe(true);
    // A misbehaving service echoing the key and a password back in an error page.
    service.faults.add({
      path: '/api/v1/reports',
      method: 'GET',
      status: 500,
      contentType: 'text/html',
      body: `<h1>Error</h1><pre>Authorization: Bearer ${API_KEY}\npassword=${PASSWORD_CREATE}</pre>`,
      times: 2,
    });
    expect((await call('reports:list', { per_page: 10 })).ok).toBe(false);
    expect((await call('cache:sync')).ok).toBe(true);
    expect((await call('account:get')).ok).toBe(true);

    await service.stop();
    const offline = await call('reports:list', { per_page: 25, search: 'secret' });
    expect(offline).toMatchObject({ ok: true, value: { source: 'cache' } });
    expect((await call('reports:get', { id })).ok).toBe(true);
    expect(
      await call('reports:update', { id, changes: { privacy: 2, password: PASSWORD_CREATE } }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'offline' },
    });
    await call('connectivity:check');
    await call('cache:status');

    // The search is only meaningful if the places searched really hold the session.
    const files = filesUnder(app.dataDir).map((file) => relative(app.dataDir, file));
    expect(files).toEqual(expect.arrayContaining(['profiles.json', 'cache.sqlite', 'logs/report-desk.log']));
    expect(files).toEqual(expect.arrayContaining(['logs/report-desk.1.log']));
    expect(memory.lines.length).toBeGreaterThan(10);
    expect(service.requests.filter((r) => r.authorized).length).toBeGreaterThan(5);
    expect(findSecrets(app.dataDir, SECRETS, [...memory.lines, ...seen])).toEqual([]);
  });
});

describe('the packaged files', () => {
  const config = loadYaml(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')) as {
    files: string[];
  };
  const skipped = new Set([
    'node_modules',
    '.git',
    'release',
    'test-results',
    'playwright-report',
    'coverage',
  ]);

  function repoFiles(dir = repoRoot): string[] {
    const out: string[] = [];
    for (const entry of readdirSync(dir)) {
      if (dir === repoRoot && skipped.has(entry)) continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) out.push(...repoFiles(path));
      else out.push(path);
    }
    return out;
  }

  it('holds no secret, and no test, preview or CLI file', () => {
    // electron-builder's own matcher, with the `files` list as written.
    const filter = new FileMatcher(repoRoot, '/app', (pattern) => pattern, config.files).createFilter();
    const asFile = { isDirectory: () => false } as unknown as Stats;
    const packaged = repoFiles().filter((file) => filter(file, asFile));
    const names = packaged.map((file) => relative(repoRoot, file));

    expect(names).toContain('package.json');
    for (const name of names) {
      expect(name).not.toMatch(/^(tests|electron|renderer|shared|scripts|docs|bin)\//);
      expect(name).not.toMatch(/(^|\/)(preview|cli)(\/|\.|$)/);
      expect(name).not.toMatch(/\.(ts|tsx|map)$/);
    }
    const hits: string[] = [];
    for (const file of packaged) {
      const bytes = readFileSync(file);
      for (const secret of SECRETS)
        if (bytes.includes(Buffer.from(secret))) hits.push(`${secret.slice(0, 3)}… in ${file}`);
    }
    expect(hits).toEqual([]);
  });
});

describe('the browser preview', () => {
  let service: DemoService;
  let app: TempCore;
  let buildDir: string;

  beforeAll(async () => {
    buildDir = mkdtempSync(join(tmpdir(), 'reportdesk-reliability-renderer-'));
    // A fresh build in a temp folder: dist/ may be rebuilt by other runs at the same time.
    await promisify(execFile)(
      process.execPath,
      [
        join(repoRoot, 'node_modules/vite/bin/vite.js'),
        'build',
        '--outDir',
        buildDir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      { cwd: repoRoot },
    );
    service = await startDemoService({ accounts: [ACCOUNT], reportsPerAccount: 30 });
    app = await tempCore('secrets-preview', { keyStore: testKeyStore().store });
  });

  afterAll(async () => {
    await app?.close();
    await service?.stop();
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  });

  it('keeps no key or password in localStorage, sessionStorage, IndexedDB, cookies or the page', async () => {
    expect(existsSync(join(buildDir, 'index.html'))).toBe(true);
    const preview = await startPreviewServer({
      handlers: app.core.handlers,
      events: app.core.events,
      rendererDir: buildDir,
    });
    const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(preview.url);

      // First run: the welcome screen's form, as a person would fill it in.
      await page.getByLabel('Profile name').fill('Work');
      await page.getByLabel('Base URL').fill(service.baseUrl);
      await page.getByLabel('API key').fill(API_KEY);
      await page.getByRole('button', { name: 'Add profile' }).click();
      await page
        .locator('table[aria-label="Reports"] tbody tr.clickable')
        .first()
        .waitFor({ timeout: 20_000 });

      // A password-protected report and a new password, through the same bridge the UI uses.
      const outcome = await page.evaluate(
        async ([first, second]) => {
          const bridge = (
            globalThis as unknown as {
              reportDesk: {
                invoke(c: string, i?: unknown): Promise<{ ok: boolean; value?: { id: string } }>;
              };
            }
          ).reportDesk;
          const created = await bridge.invoke('reports:create', {
            url: 'https://www.contoso.com/vault',
            privacy: 2,
            password: first,
          });
          const id = created.value?.id ?? '';
          const updated = await bridge.invoke('reports:update', {
            id,
            changes: { privacy: 2, password: second },
          });
          return { created: created.ok, updated: updated.ok, id };
        },
        [PASSWORD_CREATE, PASSWORD_UPDATE],
      );
      expect(outcome).toMatchObject({ created: true, updated: true });
      await page.goto(`${preview.origin}/#/reports/${outcome.id}`);
      await page.getByText('https://www.contoso.com/vault').first().waitFor();
      await page.goto(`${preview.origin}/#/profiles`);
      await page.getByText(API_KEY.slice(-4)).first().waitFor();

      const stored = await page.evaluate(async () => {
        const g = globalThis as unknown as {
          localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
          sessionStorage: {
            length: number;
            key(i: number): string | null;
            getItem(k: string): string | null;
          };
          indexedDB: { databases(): Promise<{ name?: string }[]> };
          caches: { keys(): Promise<string[]> };
          document: { documentElement: { outerHTML: string }; cookie: string };
        };
        const dump = (s: typeof g.localStorage) =>
          Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i) ?? '')}`);
        return {
          local: dump(g.localStorage),
          session: dump(g.sessionStorage),
          indexedDb: (await g.indexedDB.databases()).map((d) => d.name ?? ''),
          cacheStorage: await g.caches.keys(),
          cookie: g.document.cookie,
          html: g.document.documentElement.outerHTML,
        };
      });
      const cookies = await context.cookies();
      // The list's saved choices prove localStorage was in use, so its emptiness of secrets means something.
      expect(stored.local.some((entry) => entry.startsWith('reportdesk.'))).toBe(true);
      const texts = [
        ...stored.local,
        ...stored.session,
        ...stored.indexedDb,
        ...stored.cacheStorage,
        stored.cookie,
        stored.html,
        JSON.stringify(cookies),
      ];
      for (const secret of SECRETS) for (const text of texts) expect(text.includes(secret)).toBe(false);
      // The page shows the key's hint, never the key.
      expect(stored.html).toContain(API_KEY.slice(-4));
    } finally {
      await browser.close();
      await preview.stop();
    }
  });
});
