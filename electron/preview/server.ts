/**
 * The browser preview: the built renderer served on a loopback address, with the core behind a
 * bridge (/__bridge/*) that implements the same contract as the Electron preload. It lets
 * Playwright drive the real UI in Chromium where the Electron runtime is absent. Never packaged.
 *
 * Any web page the user has open can send requests to 127.0.0.1, so the bridge answers only
 * requests carrying the per-run token in the X-ReportDesk-Preview-Token header (the event stream,
 * which EventSource opens without headers, in its query). Not a cookie: browsers send a cookie
 * for 127.0.0.1 to every port of it, so any other local server the user opens would receive it.
 * The served page learns the token from the link `/?token=T`, keeps it in sessionStorage (which
 * only this origin — scheme, host and port — can read) and removes it from the address bar. The
 * built renderer's files hold no secret and are served without the token. The Host header must
 * name this server exactly (a DNS-rebinding page would send its own host name), and a bridge
 * request that carries an Origin must come from this server's origin; a cross-origin page cannot
 * even send the header without a CORS preflight, which is refused.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isLoopbackHost } from '../../shared/baseUrl';
import {
  contentTypeFor,
  ENTRY_PAGE,
  isHashedAsset,
  isInside,
  KEPT_FOR_GOOD,
  realFileInside,
  securityHeaders,
  withDocumentLanguage,
} from '../core/desktop/appProtocol';
import type { Language } from '../../shared/i18n/languages';
import type { ContractHandlers, EventName, EventPayloads } from '../../shared/contract';
import { englishOnlyError, fail, type Result } from '../../shared/errors';
import type { EventHub } from '../core/events';
import { dispatch } from '../core/ipc/dispatch';
import { registerSecret, silentLogger, type Logger } from '../core/log';
import { BRIDGE_SCRIPT } from './bridgeScript';

export interface PreviewServerOptions {
  handlers: ContractHandlers;
  events: EventHub;
  /** The built renderer (dist/renderer: index.html + assets/). */
  rendererDir: string;
  /** Default 127.0.0.1; anything that is not a loopback address is refused. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  logger?: Logger;
  /**
   * The language the page is served in when the core decides it (this run's --lang, a language
   * chosen in Settings); null leaves it to the browser's languages (core/desktop/appProtocol.ts ›
   * withDocumentLanguage).
   */
  documentLanguage?: () => Language | null;
}

export interface PreviewServer {
  /** http://HOST:PORT/?token=… — opening it authorises the browser. */
  url: string;
  /** http://HOST:PORT */
  origin: string;
  token: string;
  stop(): Promise<void>;
}

/** The header every bridge request carries the per-run token in. */
export const PREVIEW_TOKEN_HEADER = 'x-reportdesk-preview-token';
export const BRIDGE_SCRIPT_PATH = '/__bridge/bridge.js';
export const INVOKE_PATH = '/__bridge/invoke';
export const EVENTS_PATH = '/__bridge/events';
export const MAX_INVOKE_BODY_BYTES = 1024 * 1024;

const BRIDGE_SCRIPT_TAG = `<script src="${BRIDGE_SCRIPT_PATH}"></script>`;

const NEEDS_TOKEN =
  'This preview needs its access link: open the URL that npm run preview printed (it contains the token).';
const OUT_OF_DATE = 'That preview link is out of date. Open the URL npm run preview printed this time.';

/** Starts the preview server; resolves once it listens. */
export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new Error(
      `The preview server only listens on this computer; "${host}" is not a loopback address. Use 127.0.0.1.`,
    );
  }
  const logger = options.logger ?? silentLogger;
  const rendererRoot = await realpath(resolve(options.rendererDir)).catch(() => {
    throw new Error(
      `The renderer folder ${options.rendererDir} does not exist. Build it first with npm run build:renderer.`,
    );
  });
  const token = randomBytes(32).toString('base64url');
  // The token is a credential for this run: it must never appear in a log line.
  registerSecret(token);

  const eventStreams = new Set<ServerResponse>();
  let expectedHost = '';
  let origin = '';

  const server = createServer((request, response) => {
    handle(request, response).catch((thrown: unknown) => {
      logger.error('preview request failed', {
        path: pathOf(request),
        error: thrown instanceof Error ? thrown.message : String(thrown),
      });
      if (!response.headersSent) sendText(response, 500, 'The preview server failed to answer. See its log.');
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.headers.host !== expectedHost) {
      sendText(response, 403, `This preview only answers requests addressed to ${expectedHost}.`);
      return;
    }
    let url: URL;
    try {
      url = new URL(request.url ?? '/', origin);
    } catch {
      sendText(response, 400, 'The address is not valid.');
      return;
    }
    const method = request.method ?? 'GET';

    if (url.pathname === '/' && url.searchParams.has('token')) {
      // The page keeps the token (see the bridge script); a wrong one is said at once.
      if (!sameSecret(url.searchParams.get('token') ?? '', token)) {
        sendText(response, 403, OUT_OF_DATE);
        return;
      }
    }

    if (url.pathname.startsWith('/__bridge/')) {
      if (url.pathname === BRIDGE_SCRIPT_PATH && (method === 'GET' || method === 'HEAD')) {
        // No secret in it: the token reaches the page through its own address.
        return sendBody(response, 200, 'text/javascript; charset=utf-8', BRIDGE_SCRIPT, method);
      }
      const requestOrigin = request.headers.origin;
      if (requestOrigin !== undefined && requestOrigin !== origin) {
        sendText(response, 403, `The preview bridge only answers pages served by ${origin}.`);
        return;
      }
      const header = request.headers[PREVIEW_TOKEN_HEADER];
      // EventSource cannot set a header: the stream alone takes the token from its query.
      const given =
        typeof header === 'string'
          ? header
          : url.pathname === EVENTS_PATH
            ? (url.searchParams.get('token') ?? '')
            : '';
      if (!sameSecret(given, token)) {
        sendText(response, 403, NEEDS_TOKEN);
        return;
      }
      if (url.pathname === INVOKE_PATH) return invoke(request, response, method);
      if (url.pathname === EVENTS_PATH && method === 'GET') return openEventStream(response);
      sendText(response, 404, 'There is no such preview bridge endpoint.');
      return;
    }

    if (method !== 'GET' && method !== 'HEAD') {
      sendText(response, 405, 'The preview only serves files here (GET).', { Allow: 'GET, HEAD' });
      return;
    }
    return serveFile(url.pathname, response, method);
  }

  async function invoke(request: IncomingMessage, response: ServerResponse, method: string): Promise<void> {
    if (method !== 'POST') {
      sendResult(response, 405, invalid('The bridge expects a POST with a JSON body.'), { Allow: 'POST' });
      return;
    }
    const contentType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (contentType !== 'application/json') {
      sendResult(response, 415, invalid('The bridge expects a JSON body (Content-Type: application/json).'));
      return;
    }
    const body = await readBody(request, MAX_INVOKE_BODY_BYTES);
    if (body === null) {
      sendResult(response, 413, invalid('The request is larger than 1 MB. Send less data at a time.'), {
        Connection: 'close',
      });
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      sendResult(response, 400, invalid('The request body is not valid JSON.'));
      return;
    }
    const { channel, input } = (typeof message === 'object' && message !== null ? message : {}) as {
      channel?: unknown;
      input?: unknown;
    };
    const result = await dispatch(options.handlers, channel, input, logger);
    sendResult(response, 200, result);
  }

  function openEventStream(response: ServerResponse): void {
    setSecurityHeaders(response);
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    // A comment line: the browser sees the stream open at once.
    response.write(': connected\n\n');
    eventStreams.add(response);
    const unsubscribe = options.events.subscribe(
      <E extends EventName>(event: E, payload: EventPayloads[E]) => {
        response.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
      },
    );
    // The response's close (not the request's, which fires once a GET is read) means the tab left.
    response.on('close', () => {
      unsubscribe();
      eventStreams.delete(response);
    });
  }

  async function serveFile(pathname: string, response: ServerResponse, method: string): Promise<void> {
    if (pathname === '/' || pathname === '/index.html') {
      const html = await readFile(resolve(rendererRoot, ENTRY_PAGE), 'utf8');
      const language = options.documentLanguage?.() ?? null;
      const page = injectBridge(language === null ? html : withDocumentLanguage(html, language));
      sendBody(response, 200, contentTypeFor(ENTRY_PAGE), page, method);
      return;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(pathname);
    } catch {
      sendText(response, 400, 'The address is not valid.');
      return;
    }
    const file = await fileInside(rendererRoot, relative);
    if (file === 'outside') {
      sendText(response, 403, 'That path is outside the preview folder.');
      return;
    }
    if (file === null && pathname === '/favicon.ico') {
      // Browsers ask for it unprompted; an empty answer keeps a 404 out of the page console.
      setSecurityHeaders(response);
      response.writeHead(204);
      response.end();
      return;
    }
    if (file === null) {
      sendText(response, 404, 'There is no such file in the preview.');
      return;
    }
    const type = contentTypeFor(file);
    // As app:// does: the hashed assets are kept for good (and their compiled code with them).
    const kept: Record<string, string> = isHashedAsset(pathname) ? { 'Cache-Control': KEPT_FOR_GOOD } : {};
    sendBody(response, 200, type, await readFile(file), method, kept);
  }

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  expectedHost = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  origin = `http://${expectedHost}`;
  logger.info('preview server listening', { origin });

  let stopping: Promise<void> | null = null;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    stop() {
      stopping ??= new Promise<void>((resolveClose) => {
        for (const stream of eventStreams) stream.end();
        eventStreams.clear();
        server.close(() => resolveClose());
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections();
      });
      return stopping;
    },
  };
}

/** Puts the bridge script first in <head>, so window.reportDesk exists before the app runs. */
export function injectBridge(html: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) {
    const at = head.index + head[0].length;
    return html.slice(0, at) + BRIDGE_SCRIPT_TAG + html.slice(at);
  }
  // No <head>: the parser creates one around the first script anyway.
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return html.slice(0, at) + BRIDGE_SCRIPT_TAG + html.slice(at);
}

/** Resolves a URL path inside root; 'outside' for any escape (.., symlinks), null if absent. */
async function fileInside(root: string, relative: string): Promise<string | 'outside' | null> {
  if (relative.includes('\0')) return 'outside';
  const candidate = resolve(root, '.' + (relative.startsWith('/') ? relative : '/' + relative));
  if (!isInside(root, candidate)) return 'outside';
  return realFileInside(root, candidate);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Reads the body, or null as soon as it passes the limit (the rest is not buffered). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolveBody, rejectBody) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        resolveBody(null);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (!tooLarge) resolveBody(Buffer.concat(chunks));
    });
    request.on('error', rejectBody);
  });
}

/** The bridge's own protocol, which only a broken page breaks: said in English (the app says its kind's sentence). */
function invalid(message: string): Result<never> {
  return fail(englishOnlyError('invalid_input', message));
}

/** The app:// protocol's security headers; nothing is kept in the browser's cache unless a response says so. */
function setSecurityHeaders(response: ServerResponse): void {
  for (const [name, value] of Object.entries({ ...securityHeaders(), 'Cache-Control': 'no-store' })) {
    response.setHeader(name, value);
  }
}

function sendBody(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  method = 'GET',
  extraHeaders: Record<string, string> = {},
): void {
  setSecurityHeaders(response);
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': bytes.length,
    ...extraHeaders,
  });
  response.end(method === 'HEAD' ? undefined : bytes);
}

function sendText(
  response: ServerResponse,
  status: number,
  sentence: string,
  extraHeaders: Record<string, string> = {},
): void {
  sendBody(response, status, 'text/plain; charset=utf-8', sentence + '\n', 'GET', extraHeaders);
}

function sendResult(
  response: ServerResponse,
  status: number,
  result: unknown,
  extraHeaders: Record<string, string> = {},
): void {
  sendBody(response, status, 'application/json; charset=utf-8', JSON.stringify(result), 'GET', extraHeaders);
}

function pathOf(request: IncomingMessage): string {
  return (request.url ?? '').split('?')[0];
}
