import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ENTRY_URL,
  cacheControlFor,
  createAppProtocolHandler,
  resolveAppRequest,
  withDocumentLanguage,
} from '../../../electron/core/desktop/appProtocol';
import { CONTENT_SECURITY_POLICY } from '../../../electron/core/desktop/csp';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'reportdesk-approto-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><html lang="en"><title>ReportDesk</title></html>');
  writeFileSync(join(root, 'assets', 'index.html'), '<html lang="en">not the entry</html>');
  writeFileSync(join(root, 'assets', 'app-1234.js'), 'console.log("app")');
  writeFileSync(join(root, 'assets', 'index-DyYxvGT4.js'), 'console.log("hashed")');
  writeFileSync(join(root, 'assets', 'style.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'with space.svg'), '<svg/>');
  writeFileSync(join(base, 'secret.txt'), 'outside the renderer folder');
  symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('resolveAppRequest', () => {
  it('serves index.html for the root and files under the folder', () => {
    expect(resolveAppRequest('app://reportdesk/', root)).toMatchObject({
      kind: 'file',
      filePath: join(root, 'index.html'),
      contentType: 'text/html; charset=utf-8',
    });
    expect(resolveAppRequest('app://reportdesk/assets/app-1234.js?v=1#x', root)).toMatchObject({
      kind: 'file',
      filePath: join(root, 'assets', 'app-1234.js'),
      contentType: 'text/javascript; charset=utf-8',
    });
    expect(resolveAppRequest('app://reportdesk/assets/with%20space.svg', root)).toMatchObject({
      filePath: join(root, 'assets', 'with space.svg'),
      contentType: 'image/svg+xml',
    });
  });

  it.each([
    'app://reportdesk/assets/..%2F..%2Fsecret.txt',
    'app://reportdesk/%2e%2e%2fsecret.txt',
    'app://reportdesk/..%5csecret.txt',
    'app://reportdesk/assets%2F..%2F..%2Fsecret.txt',
    'app://reportdesk/index.html%00.js',
    'app://reportdesk/%E0%A4%A',
    'app://other-host/index.html',
    'https://reportdesk/index.html',
  ])('forbids %s', (url) => {
    expect(resolveAppRequest(url, root)).toEqual({ kind: 'forbidden' });
  });

  it('keeps a plain ../ inside the folder (the URL parser resolves it before we see it)', () => {
    const resolution = resolveAppRequest('app://reportdesk/../../secret.txt', root);
    expect(resolution).toMatchObject({ kind: 'file', filePath: join(root, 'secret.txt') });
  });
});

describe('createAppProtocolHandler', () => {
  const handler = () => createAppProtocolHandler(root);

  it('answers the entry page with the CSP and nosniff headers', async () => {
    const response = await handler()(new Request(APP_ENTRY_URL));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>ReportDesk</title>');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('answers an unknown path with 404 — there is no SPA fallback — still with the CSP', async () => {
    const response = await handler()(new Request('app://reportdesk/reports/12'));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('refuses traversal with 403 and does not leak the file', async () => {
    const response = await handler()(new Request('app://reportdesk/assets/..%2F..%2Fsecret.txt'));
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain('outside the renderer folder');
  });

  it('does not follow a symbolic link out of the folder', async () => {
    const response = await handler()(new Request('app://reportdesk/assets/link.txt'));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('outside the renderer folder');
  });

  it('answers a directory with 404', async () => {
    expect((await handler()(new Request('app://reportdesk/assets'))).status).toBe(404);
  });

  it('refuses methods other than GET and HEAD', async () => {
    const response = await handler()(new Request(APP_ENTRY_URL, { method: 'POST', body: 'x' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers HEAD without a body', async () => {
    const response = await handler()(new Request('app://reportdesk/assets/style.css', { method: 'HEAD' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await response.text()).toBe('');
  });
});

describe('the entry page in the window’s language (issue 28)', () => {
  it('says the language and its direction on <html>, so the first frame is laid out in it', () => {
    expect(withDocumentLanguage('<!doctype html><html lang="en"><head></head></html>', 'ar')).toBe(
      '<!doctype html><html lang="ar" dir="rtl" data-language="ar"><head></head></html>',
    );
    expect(withDocumentLanguage('<HTML>x</HTML>', 'de')).toBe(
      '<html lang="de" dir="ltr" data-language="de">x</HTML>',
    );
    expect(withDocumentLanguage('<p>no html tag</p>', 'ar-XB')).toBe(
      '<html lang="ar-XB" dir="rtl" data-language="ar-XB"><p>no html tag</p>',
    );
  });

  it('serves the entry page in the language main’s words are in at the time, and nothing else changed', async () => {
    let language: 'de' | 'ar' = 'ar';
    const handler = createAppProtocolHandler(root, { documentLanguage: () => language });
    expect(await (await handler(new Request(APP_ENTRY_URL))).text()).toContain(
      '<html lang="ar" dir="rtl" data-language="ar">',
    );
    language = 'de';
    expect(await (await handler(new Request('app://reportdesk/'))).text()).toContain(
      '<html lang="de" dir="ltr"',
    );
    // Only the entry page: another file of that name, and the scripts, are served as they are.
    expect(await (await handler(new Request('app://reportdesk/assets/index.html'))).text()).toBe(
      '<html lang="en">not the entry</html>',
    );
    expect(await (await handler(new Request('app://reportdesk/assets/style.css'))).text()).toBe('body{}');
    // Without the option (and for HEAD), the file as built.
    expect(await (await createAppProtocolHandler(root)(new Request(APP_ENTRY_URL))).text()).toContain(
      '<html lang="en">',
    );
    const head = await handler(new Request(APP_ENTRY_URL, { method: 'HEAD' }));
    expect(await head.text()).toBe('');
  });
});

describe('what may be kept', () => {
  it("keeps Vite's hashed scripts and styles for good, and asks again for everything else", () => {
    expect(cacheControlFor('/assets/index-DyYxvGT4.js')).toBe('max-age=31536000, immutable');
    expect(cacheControlFor('/assets/later-m4X-6j2n.js')).toBe('max-age=31536000, immutable');
    expect(cacheControlFor('/assets/index-BcP6XLpd.css')).toBe('max-age=31536000, immutable');
    for (const path of [
      '/',
      '/index.html',
      '/assets/app-1234.js',
      '/assets/style.css',
      '/x/index-DyYxvGT4.js',
    ])
      expect(cacheControlFor(path)).toBe('no-cache');
  });

  it('says so on the response', async () => {
    const handler = createAppProtocolHandler(root);
    const hashed = await handler(new Request('app://reportdesk/assets/index-DyYxvGT4.js'));
    expect(hashed.headers.get('cache-control')).toBe('max-age=31536000, immutable');
    expect(hashed.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const entry = await handler(new Request('app://reportdesk/'));
    expect(entry.headers.get('cache-control')).toBe('no-cache');
  });
});
