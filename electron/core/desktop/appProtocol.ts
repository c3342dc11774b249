/**
 * The app:// protocol that serves the built renderer (dist/renderer) in Electron. A custom
 * privileged scheme gives the page a real origin (unlike file://), so the CSP's 'self', IPC
 * sender checks and navigation rules can name it. Written against the standard Request and
 * Response classes, so main passes it straight to protocol.handle and tests call it in Node.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { directionOf, type Language } from '../../../shared/i18n/languages';
import { CONTENT_SECURITY_POLICY } from './csp';

export const APP_SCHEME = 'app';
export const APP_HOST = 'reportdesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export type AppRequestResolution =
  { kind: 'file'; filePath: string; contentType: string } | { kind: 'forbidden' };

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a request URL to a file under rootDir, or refuses it. Pure (no file system access):
 * another host, an undecodable path, a NUL byte, a backslash, a ".." segment (plain or
 * percent-encoded) or a path that would land outside rootDir is forbidden. "/" is index.html;
 * the renderer uses a hash router, so there is no SPA fallback: anything else missing is a 404.
 */
export function resolveAppRequest(requestUrl: string, rootDir: string): AppRequestResolution {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { kind: 'forbidden' };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host.toLowerCase() !== APP_HOST) return { kind: 'forbidden' };
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return { kind: 'forbidden' };
  }
  if (path.includes('\0') || path.includes('\\')) return { kind: 'forbidden' };
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return { kind: 'forbidden' };
  if (segments.length === 0) segments.push('index.html');
  const root = resolve(rootDir);
  const filePath = resolve(root, ...segments);
  if (!isInside(root, filePath)) return { kind: 'forbidden' };
  return { kind: 'file', filePath, contentType: contentTypeFor(filePath) };
}

/** Whether candidate lies strictly below root (both absolute); lexical, no file system access. */
export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
}

/**
 * The regular file at candidate with symbolic links resolved, as long as it stays inside
 * realRoot (itself already resolved): 'outside' when a link leads out, null when there is no
 * such file (or it is a folder).
 */
export async function realFileInside(
  realRoot: string,
  candidate: string,
): Promise<string | 'outside' | null> {
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    return null;
  }
  if (!isInside(realRoot, real)) return 'outside';
  return (await stat(real)).isFile() ? real : null;
}

/** Headers on every app:// response, errors included. */
export function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}

/**
 * A file of Vite's build named by its content (`assets/<name>-<8-character hash>.<ext>`): its
 * name changes whenever it does, so it may be kept for good. Kept, a script's compiled code is
 * kept with it (the scheme's `codeCache` privilege, electron/main/main.ts): the next start does
 * not compile the 306 KB of the first chunk again (issue 22).
 */
const HASHED_ASSET = /^\/assets\/[\w.-]+-[\w-]{8}\.(?:js|css)$/;

/** The Cache-Control of a hashed asset: kept for a year, never asked again meanwhile. */
export const KEPT_FOR_GOOD = 'max-age=31536000, immutable';

export function isHashedAsset(pathname: string): boolean {
  return HASHED_ASSET.test(pathname);
}

/** The Cache-Control of a response for `pathname`: hashed assets for good, the rest asked again. */
export function cacheControlFor(pathname: string): string {
  return isHashedAsset(pathname) ? KEPT_FOR_GOOD : 'no-cache';
}

/** The renderer's entry page, the one document a window loads. */
export const ENTRY_PAGE = 'index.html';

/**
 * The entry page in `language`: `<html lang dir data-language>` as the page will be, so that its
 * first frame is already laid out in the language's direction (issue 28: an Arabic window is
 * never drawn left to right first); the page reads `data-language` as the language to load
 * (renderer/src/lib/i18n.tsx › guessedLanguage).
 */
export function withDocumentLanguage(html: string, language: Language): string {
  const tag = `<html lang="${language}" dir="${directionOf(language)}" data-language="${language}">`;
  return /<html\b[^>]*>/i.test(html) ? html.replace(/<html\b[^>]*>/i, tag) : tag + html;
}

export interface AppProtocolOptions {
  /** The language the window shows (main's words follow it), put into the entry page. */
  documentLanguage?: () => Language;
}

/** The handler main passes to protocol.handle(APP_SCHEME, …). */
export function createAppProtocolHandler(
  rootDir: string,
  options: AppProtocolOptions = {},
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(405, 'Only GET and HEAD are served here.', { Allow: 'GET, HEAD' });
    }
    const resolution = resolveAppRequest(request.url, rootDir);
    if (resolution.kind === 'forbidden') return plain(403, 'This address is outside ReportDesk.');
    try {
      // A symbolic link inside the folder must not lead out of it either.
      const realRoot = await realpath(rootDir);
      const realFile = await realFileInside(realRoot, resolution.filePath);
      if (realFile === null || realFile === 'outside') return plain(404, 'Not found.');
      let body: Buffer | string | null = request.method === 'HEAD' ? null : await readFile(realFile);
      if (body !== null && options.documentLanguage && realFile === join(realRoot, ENTRY_PAGE)) {
        body = withDocumentLanguage(body.toString('utf8'), options.documentLanguage());
      }
      return new Response(body, {
        status: 200,
        headers: {
          ...securityHeaders(),
          'Content-Type': resolution.contentType,
          'Cache-Control': cacheControlFor(new URL(request.url).pathname),
        },
      });
    } catch {
      return plain(404, 'Not found.');
    }
  };
}

function plain(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { ...securityHeaders(), 'Content-Type': 'text/plain; charset=utf-8', ...extra },
  });
}
