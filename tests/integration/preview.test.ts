/**
 * The browser preview server, for real on 127.0.0.1, with fake contract handlers and a small
 * renderer folder. Raw node:http requests, because fetch() will not send a forged Host header
 * or an un-normalised path.
 */
import { parse as parseScript } from 'acorn';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script, createContext, runInContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractHandlers, ProfilesState } from '../../shared/contract';
import { AppFailure, appError } from '../../shared/errors';
import { CONTENT_SECURITY_POLICY } from '../../electron/core/desktop/csp';
import { EventHub } from '../../electron/core/events';
import { createLogger, memorySink } from '../../electron/core/log';
import { PREVIEW_TOKEN_HEADER, startPreviewServer, type PreviewServer } from '../../electron/preview/server';
import { unimplementedHandlers } from '../helpers/fakeHandlers';

const PROFILES: ProfilesState = {
  profiles: [
    {
      id: 'p1',
      name: 'Work',
      baseUrl: 'https://reports.example.test',
      allowInsecureHttp: false,
      keyHint: 'ab12',
      hasKey: true,
      keyStorage: 'keychain',
      demo: false,
    },
  ],
  activeId: 'p1',
};
const SECRET_TEXT = 'outside-the-renderer-folder';

/** A few channels answer; every other one throws, as an unimplemented handler would. */
function fakeHandlers(): ContractHandlers {
  const handlers = unimplementedHandlers();
  handlers['profiles:list'] = async () => PROFILES;
  handlers['profiles:activate'] = async ({ id }) => ({ ...PROFILES, activeId: id });
  handlers['reports:get'] = async () => {
    throw new AppFailure(appError('not_found'));
  };
  return handlers;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let root: string;
let rendererDir: string;
let events: EventHub;
let server: PreviewServer;
let port: number;
const logSink = memorySink();

function send(
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    chunked?: boolean;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { Host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    // The server may answer 413 and close before the whole body is sent.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : reject(error)));
    if (options.chunked && options.body !== undefined) {
      const body = Buffer.from(options.body);
      const half = Math.floor(body.length / 2);
      req.write(body.subarray(0, half));
      req.end(body.subarray(half));
    } else {
      req.end(options.body);
    }
  });
}

const authed = (headers: Record<string, string> = {}) => ({
  [PREVIEW_TOKEN_HEADER]: server.token,
  ...headers,
});

function invoke(body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send('/__bridge/invoke', {
    method: 'POST',
    headers: authed({ 'Content-Type': 'application/json', ...headers }),
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'reportdesk-preview-'));
  rendererDir = join(root, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(
    join(rendererDir, 'index.html'),
    '<!doctype html>\n<html><head><meta charset="utf-8"><script type="module" src="./assets/app.js"></script>' +
      '<link rel="stylesheet" href="./assets/app.css"></head><body><div id="root"></div></body></html>',
  );
  // Records whether the bridge existed when the app's own script ran.
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'window.appSawBridge = typeof window.reportDesk;\n');
  await writeFile(join(rendererDir, 'assets', 'app.css'), 'body { margin: 0 }\n');
  await writeFile(join(rendererDir, 'assets', 'index-DyYxvGT4.js'), 'window.hashed = true;\n');
  await writeFile(join(root, 'secret.txt'), SECRET_TEXT);
  await symlink(join(root, 'secret.txt'), join(rendererDir, 'assets', 'linked.txt'));

  events = new EventHub();
  server = await startPreviewServer({
    handlers: fakeHandlers(),
    events,
    rendererDir,
    logger: createLogger('preview-test', logSink, 'debug'),
  });
  port = Number(new URL(server.origin).port);
});

afterAll(async () => {
  await server?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('the access token', () => {
  it('is 32 random bytes in base64url and is part of the printed URL', () => {
    expect(Buffer.from(server.token, 'base64url')).toHaveLength(32);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(server.url).toBe(`http://127.0.0.1:${port}/?token=${server.token}`);
    expect(server.origin).toBe(`http://127.0.0.1:${port}`);
  });

  it('refuses the bridge without the token, with a one-line explanation', async () => {
    const posted = await send('/__bridge/invoke', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: 'profiles:list' }),
    });
    const stream = await send('/__bridge/events');
    for (const reply of [posted, stream]) {
      expect(reply.status).toBe(403);
      expect(reply.headers['content-type']).toMatch(/^text\/plain/);
      expect(reply.body.trim().split('\n')).toHaveLength(1);
      expect(reply.body).toMatch(/npm run preview/);
    }
  });

  it('serves the built renderer and the bridge script without it: they hold no secret', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/__bridge/bridge.js']) {
      const reply = await send(path);
      expect(reply.status, path).toBe(200);
      expect(reply.body, path).not.toContain(server.token);
      expect(reply.headers['set-cookie'], path).toBeUndefined();
    }
  });

  it('answers the token link with the page itself, setting no cookie', async () => {
    const reply = await send(`/?token=${server.token}`);
    expect(reply.status).toBe(200);
    expect(reply.headers['set-cookie']).toBeUndefined();
    expect(reply.body).toContain('<script src="/__bridge/bridge.js"></script>');
  });

  it('refuses a wrong token in the link, the header or the stream query', async () => {
    const wrongToken = server.token.slice(0, -1) + (server.token.endsWith('A') ? 'B' : 'A');
    const reply = await send(`/?token=${wrongToken}`);
    expect(reply.status).toBe(403);
    expect(reply.body).toMatch(/out of date/);
    expect((await invoke({ channel: 'profiles:list' }, { [PREVIEW_TOKEN_HEADER]: wrongToken })).status).toBe(
      403,
    );
    expect((await invoke({ channel: 'profiles:list' }, { [PREVIEW_TOKEN_HEADER]: '' })).status).toBe(403);
    expect((await send(`/__bridge/events?token=${wrongToken}`)).status).toBe(403);
  });

  it('takes the token in the query for the event stream only, never for invoke', async () => {
    const reply = await send(`/__bridge/invoke?token=${server.token}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: 'profiles:list' }),
    });
    expect(reply.status).toBe(403);
  });

  it('ignores a cookie altogether (cookies are shared by every port of 127.0.0.1)', async () => {
    const reply = await send('/__bridge/invoke', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: `reportdesk_preview=${server.token}` },
      body: JSON.stringify({ channel: 'profiles:list' }),
    });
    expect(reply.status).toBe(403);
  });

  it('keeps the token out of the log', () => {
    expect(logSink.lines.length).toBeGreaterThan(0);
    expect(logSink.lines.join('\n')).not.toContain(server.token);
  });
});

describe('request checks', () => {
  it('refuses a Host header other than the server address (DNS rebinding)', async () => {
    for (const host of [`evil.example:${port}`, `localhost:${port}`, '127.0.0.1', `127.0.0.1:${port + 1}`]) {
      const reply = await send('/', { headers: authed({ Host: host }) });
      expect(reply.status, host).toBe(403);
      expect(reply.body).toContain(`127.0.0.1:${port}`);
    }
  });

  it('refuses a bridge request from a foreign Origin and accepts its own', async () => {
    const foreign = await invoke({ channel: 'profiles:list' }, { Origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const otherPort = await invoke({ channel: 'profiles:list' }, { Origin: `http://127.0.0.1:${port + 1}` });
    expect(otherPort.status).toBe(403);
    const own = await invoke({ channel: 'profiles:list' }, { Origin: server.origin });
    expect(own.status).toBe(200);
  });

  it('refuses a server on an address other computers can reach', async () => {
    for (const host of ['0.0.0.0', '192.168.1.10', '::', 'example.com']) {
      await expect(
        startPreviewServer({ handlers: fakeHandlers(), events, rendererDir, host }),
      ).rejects.toThrow(/loopback/);
    }
  });
});

describe('static files', () => {
  it('serves index.html with the bridge script first in <head> and the security headers', async () => {
    const reply = await send('/', { headers: authed() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.body).toContain('<head><script src="/__bridge/bridge.js"></script><meta charset="utf-8">');
    expect(reply.body.indexOf('/__bridge/bridge.js')).toBeLessThan(reply.body.indexOf('./assets/app.js'));
    expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('serves assets with their content types and the same headers', async () => {
    const script = await send('/assets/app.js', { headers: authed() });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('appSawBridge');
    expect(script.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(script.headers['cache-control']).toBe('no-store');
    // A file Vite named by its content is kept for good, as app:// keeps it.
    const hashed = await send('/assets/index-DyYxvGT4.js', { headers: authed() });
    expect(hashed.status).toBe(200);
    expect(hashed.headers['cache-control']).toBe('max-age=31536000, immutable');
    expect(hashed.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    const style = await send('/assets/app.css', { headers: authed() });
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await send('/assets/missing.js', { headers: authed() })).status).toBe(404);
    expect((await send('/assets', { headers: authed() })).status).toBe(404);
    // The browser's unprompted favicon request gets an empty answer, not a console error.
    expect((await send('/favicon.ico', { headers: authed() })).status).toBe(204);
  });

  it('puts the CSP header on refusals too', async () => {
    const reply = await send('/__bridge/invoke');
    expect(reply.status).toBe(403);
    expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  });

  it('never serves a file outside the renderer folder', async () => {
    const attempts = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/linked.txt',
      '/assets/app.js%00.png',
      '/%E0%A4%A',
    ];
    for (const path of attempts) {
      const reply = await send(path, { headers: authed() });
      expect(reply.status, path).toBeGreaterThanOrEqual(400);
      expect(reply.body, path).not.toContain(SECRET_TEXT);
    }
    expect((await send('/..%2fsecret.txt', { headers: authed() })).status).toBe(403);
    expect((await send('/assets/linked.txt', { headers: authed() })).status).toBe(403);
  });

  it('only answers GET and HEAD for files', async () => {
    const reply = await send('/assets/app.js', { method: 'DELETE', headers: authed() });
    expect(reply.status).toBe(405);
    const head = await send('/assets/app.js', { method: 'HEAD', headers: authed() });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });
});

describe('POST /__bridge/invoke', () => {
  it('answers a valid call with the handler value', async () => {
    const reply = await invoke({ channel: 'profiles:list' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(reply.body)).toEqual({ ok: true, value: PROFILES });
    const activated = await invoke({ channel: 'profiles:activate', input: { id: 'p2' } });
    expect(JSON.parse(activated.body)).toEqual({ ok: true, value: { ...PROFILES, activeId: 'p2' } });
  });

  it('answers invalid input, an unknown channel and failing handlers as error Results', async () => {
    const invalid = JSON.parse(
      (await invoke({ channel: 'profiles:activate', input: { id: 'no spaces' } })).body,
    );
    expect(invalid.ok).toBe(false);
    expect(invalid.error.kind).toBe('invalid_input');

    const unknown = JSON.parse(
      (await invoke({ channel: 'fs:readFile', input: { path: '/etc/passwd' } })).body,
    );
    expect(unknown.ok).toBe(false);
    expect(unknown.error.kind).toBe('invalid_input');
    expect(unknown.error.message).toContain('fs:readFile');

    const notFound = JSON.parse((await invoke({ channel: 'reports:get', input: { id: '12' } })).body);
    expect(notFound).toEqual({ ok: false, error: appError('not_found') });

    const crashed = await invoke({ channel: 'cache:status' });
    expect(crashed.status).toBe(200);
    expect(JSON.parse(crashed.body)).toEqual({ ok: false, error: appError('internal') });
    expect(crashed.body).not.toContain('not implemented');

    const notAnObject = JSON.parse((await invoke(['profiles:list'])).body);
    expect(notAnObject.ok).toBe(false);
  });

  it('refuses a body that is not JSON, or not declared as JSON', async () => {
    const garbled = await send('/__bridge/invoke', {
      method: 'POST',
      headers: authed({ 'Content-Type': 'application/json' }),
      body: '{"channel":',
    });
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body)).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    const form = await send('/__bridge/invoke', {
      method: 'POST',
      headers: authed({ 'Content-Type': 'application/x-www-form-urlencoded' }),
      body: 'channel=profiles:list',
    });
    expect(form.status).toBe(415);
    expect((await send('/__bridge/invoke', { headers: authed() })).status).toBe(405);
  });

  it('refuses a body over 1 MB with 413, declared or streamed', async () => {
    const big = JSON.stringify({ channel: 'profiles:list', input: { padding: 'x'.repeat(1024 * 1024) } });
    const declared = await send('/__bridge/invoke', {
      method: 'POST',
      headers: authed({ 'Content-Type': 'application/json' }),
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.message).toMatch(/1 MB/);
    const streamed = await send('/__bridge/invoke', {
      method: 'POST',
      headers: authed({ 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }),
      body: big,
      chunked: true,
    });
    expect(streamed.status).toBe(413);
    // The server is still healthy afterwards.
    expect((await invoke({ channel: 'profiles:list' })).status).toBe(200);
  });
});

describe('GET /__bridge/events', () => {
  it('delivers hub events as server-sent events', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `/__bridge/events?token=${server.token}`,
          headers: { Host: `127.0.0.1:${port}`, Accept: 'text/event-stream' },
        },
        (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            // The stream is open once its first comment arrives: now the hub has our listener.
            if (text.startsWith(': connected\n\n') && !text.includes('event:')) {
              events.emit('profiles:changed', PROFILES);
              events.emit('app:navigate', { path: '/reports/12' });
            }
            if (text.includes('/reports/12')) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(received).toContain(`event: profiles:changed\ndata: ${JSON.stringify(PROFILES)}\n\n`);
    expect(received).toContain(`event: app:navigate\ndata: {"path":"/reports/12"}\n\n`);
  });
});

describe('GET /__bridge/bridge.js', () => {
  it('is served as JavaScript and is valid ES2020', async () => {
    const reply = await send('/__bridge/bridge.js', { headers: authed() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(() => new Script(reply.body, { filename: 'bridge.js' })).not.toThrow();
    expect(() => parseScript(reply.body, { ecmaVersion: 2020, sourceType: 'script' })).not.toThrow();
  });

  /** The browser globals the bridge script reads, opened at `search` (like /?token=T). */
  function pageContext(search: string) {
    const stored = new Map<string, string>();
    const replaced: string[] = [];
    const sent: { url: string; headers: Record<string, string>; credentials: string }[] = [];
    const context = createContext({
      window: {},
      URLSearchParams,
      location: { search, pathname: '/', hash: '#/reports' },
      sessionStorage: {
        getItem: (key: string) => stored.get(key) ?? null,
        setItem: (key: string, value: string) => stored.set(key, value),
      },
      history: {
        state: null,
        replaceState: (_state: unknown, _title: string, url: string) => replaced.push(url),
      },
      fetch: (url: string, init: { headers: Record<string, string>; credentials: string }) => {
        sent.push({ url, headers: init.headers, credentials: init.credentials });
        return Promise.resolve({ status: 200, json: () => Promise.resolve({ ok: true, value: null }) });
      },
    });
    return { context, stored, replaced, sent };
  }

  it('moves the token from the address into session storage and sends it in a header, never as a cookie', async () => {
    const source = (await send('/__bridge/bridge.js')).body;
    const first = pageContext(`?token=${server.token}`);
    runInContext(source, first.context);
    // Out of the address bar (and so out of history and any Referer), kept for this tab.
    expect(first.replaced).toEqual(['/#/reports']);
    expect([...first.stored.values()]).toEqual([server.token]);
    await runInContext('window.reportDesk.invoke("profiles:list")', first.context);
    expect(first.sent).toEqual([
      {
        url: '/__bridge/invoke',
        headers: { 'Content-Type': 'application/json', 'X-ReportDesk-Preview-Token': server.token },
        credentials: 'omit',
      },
    ]);
    // A reload of the tab (no token in the address) still finds it.
    const reload = pageContext('');
    reload.stored.set('reportdesk.previewToken', server.token);
    runInContext(source, reload.context);
    expect(reload.replaced).toEqual([]);
    await runInContext('window.reportDesk.invoke("profiles:list")', reload.context);
    expect(reload.sent[0].headers['X-ReportDesk-Preview-Token']).toBe(server.token);
  });

  it('defines a frozen window.reportDesk with invoke and on', async () => {
    const source = (await send('/__bridge/bridge.js')).body;
    const { context } = pageContext('');
    runInContext(source, context);
    const bridge = runInContext('window.reportDesk', context);
    expect(typeof bridge.invoke).toBe('function');
    expect(typeof bridge.on).toBe('function');
    expect(runInContext('Object.isFrozen(window.reportDesk)', context)).toBe(true);
    expect(() => runInContext('"use strict"; window.reportDesk = {}', context)).toThrow();
  });
});

describe('the page’s language (issue 28)', () => {
  it('serves the entry page in the language the core settled on, and leaves it to the browser for "System"', async () => {
    let settled: 'ar-XB' | 'de' | null = 'ar-XB';
    const extra = await startPreviewServer({
      handlers: fakeHandlers(),
      events: new EventHub(),
      rendererDir,
      documentLanguage: () => settled,
    });
    try {
      const page = async () => (await fetch(`${extra.origin}/`)).text();
      const arabic = await page();
      expect(arabic).toContain(
        '<html lang="ar-XB" dir="rtl" data-language="ar-XB"><head><script src="/__bridge/bridge.js">',
      );
      settled = 'de';
      expect(await page()).toContain('<html lang="de" dir="ltr" data-language="de">');
      settled = null;
      expect(await page()).toContain('<html><head><script src="/__bridge/bridge.js">');
    } finally {
      await extra.stop();
    }
  });
});

describe('stop()', () => {
  it('ends open event streams and closes the port', async () => {
    const extra = await startPreviewServer({ handlers: fakeHandlers(), events: new EventHub(), rendererDir });
    const extraPort = Number(new URL(extra.origin).port);
    const streamEnded = new Promise<void>((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: extraPort,
          path: '/__bridge/events',
          headers: { [PREVIEW_TOKEN_HEADER]: extra.token },
        },
        (res) => {
          res.once('data', () => void extra.stop());
          res.on('end', resolve);
          res.on('close', resolve);
        },
      );
      req.end();
    });
    await streamEnded;
    await extra.stop();
    await expect(fetch(`${extra.origin}/`)).rejects.toThrow();
  });
});
