/**
 * An update feed served by the test on 127.0.0.1, as a release host serves one: manifests
 * (`latest-linux.yml`, `beta-linux.yml`) in electron-builder's format, their `.sig` files and
 * the files they name. It records every request (path and headers) and can be told to answer
 * a path with anything: a 404, an HTML page, a redirect, other bytes.
 */
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dump as dumpYaml } from 'js-yaml';
import { signManifest } from '../../electron/core/updates/signatures';

export interface FeedRequest {
  path: string;
  /** The path with its query, as asked. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface FeedAnswer {
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  body: Buffer | string;
  /** Send the head and this much of the body, then nothing more (a stalled server). */
  hangAfter?: number;
  /** Send the head and this much of the body, then close the connection (a dropped one). */
  dropAfter?: number;
}

export interface UpdateFeed {
  /** http://127.0.0.1:PORT/updates/ */
  url: string;
  origin: string;
  requests: FeedRequest[];
  /** Paths whose answer the client gave up on before it was complete (it closed the connection). */
  abandoned: string[];
  /** What `path` (under /updates/, without the query) answers from now on. */
  put(path: string, answer: FeedAnswer | Buffer | string): void;
  remove(path: string): void;
  /** Requests for `path` (query ignored). */
  asked(path: string): FeedRequest[];
  stop(): Promise<void>;
}

/** `tls`: serve https with this key and certificate (which the test makes its process trust). */
export async function startUpdateFeed(
  options: { tls?: { key: string; cert: string } } = {},
): Promise<UpdateFeed> {
  const files = new Map<string, FeedAnswer>();
  const requests: FeedRequest[] = [];
  const abandoned: string[] = [];
  const handler: RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://feed').pathname;
    requests.push({ path, url: req.url ?? '', headers: req.headers });
    res.on('close', () => {
      if (!res.writableFinished) abandoned.push(path);
    });
    const answer = files.get(path);
    if (!answer) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not Found');
      return;
    }
    res.writeHead(answer.status ?? 200, {
      'Content-Type': answer.contentType ?? 'application/octet-stream',
      ...answer.headers,
    });
    if (answer.hangAfter !== undefined) res.write(Buffer.from(answer.body).subarray(0, answer.hangAfter));
    else if (answer.dropAfter !== undefined) {
      res.write(Buffer.from(answer.body).subarray(0, answer.dropAfter), () => res.socket?.destroy());
    } else res.end(answer.body);
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, handler) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const full = (path: string) => (path.startsWith('/') ? path : `/updates/${path}`);
  return {
    url: `${origin}/updates/`,
    origin,
    requests,
    abandoned,
    put(path, answer) {
      files.set(
        full(path),
        Buffer.isBuffer(answer) || typeof answer === 'string' ? { body: answer } : answer,
      );
    },
    remove(path) {
      files.delete(full(path));
    },
    asked: (path) => requests.filter((request) => request.path === full(path)),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface ReleaseKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicPem: string;
  privatePem: string;
}

export function makeReleaseKeys(): ReleaseKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    publicKey,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export const sha512Base64 = (content: Buffer | string) =>
  createHash('sha512').update(content).digest('base64');

export interface ReleaseSpec {
  version: string;
  /** The installer's bytes; its name is ReportDesk-<version>.AppImage. */
  content?: Buffer;
  channel?: string;
  stagingPercentage?: number;
  releaseNotes?: string;
  /** Extra fields, or fields replaced, in the manifest (an absolute file url, a missing sha512…). */
  manifest?: Record<string, unknown>;
}

/** The manifest electron-builder writes for a Linux AppImage release (latest-linux.yml). */
export function manifestFor(spec: ReleaseSpec): { text: string; fileName: string; content: Buffer } {
  const content = spec.content ?? Buffer.from(`ReportDesk ${spec.version} AppImage\n`.repeat(200));
  const fileName = `ReportDesk-${spec.version}.AppImage`;
  const sha512 = sha512Base64(content);
  const manifest: Record<string, unknown> = {
    version: spec.version,
    files: [{ url: fileName, sha512, size: content.length }],
    path: fileName,
    sha512,
    releaseDate: '2026-11-20T10:00:00.000Z',
    ...(spec.releaseNotes !== undefined ? { releaseNotes: spec.releaseNotes } : {}),
    ...(spec.stagingPercentage !== undefined ? { stagingPercentage: spec.stagingPercentage } : {}),
    ...spec.manifest,
  };
  return { text: dumpYaml(manifest, { lineWidth: -1 }), fileName, content };
}

/**
 * Publishes a release on `feed`: the installer, the channel's manifest and its signature by
 * `keys` (unless `signed: false`). Answers the manifest's path and the installer's name.
 */
export function publishRelease(
  feed: UpdateFeed,
  keys: ReleaseKeys,
  spec: ReleaseSpec & { signed?: boolean },
): { manifestPath: string; fileName: string; manifest: string } {
  const { text, fileName, content } = manifestFor(spec);
  const manifestPath = `${spec.channel ?? 'latest'}-linux.yml`;
  feed.put(fileName, content);
  feed.put(manifestPath, { body: text, contentType: 'text/yaml' });
  if (spec.signed === false) feed.remove(`${manifestPath}.sig`);
  else feed.put(`${manifestPath}.sig`, signManifest(Buffer.from(text), keys.privateKey));
  return { manifestPath, fileName, manifest: text };
}
