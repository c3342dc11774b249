/**
 * Every request the updater makes goes through FeedHttpExecutor, electron-updater's
 * HttpExecutor with three rules of ours in its one door (`createRequest`):
 * - the address must pass ./feedUrl.ts (https, or http to this computer only), for the feed,
 *   each download, each redirect and each range request alike: a refused address is never asked;
 * - only the headers a download needs are sent (Accept, User-Agent, Cache-Control, Range): no
 *   Authorization, no cookie, and not electron-updater's per-install `x-user-staging-id`, so an
 *   update request says nothing about the user, their profiles or their reports;
 * - redirects are always handed back to us (`redirect: 'manual'`), never followed unchecked.
 * The transport below it is Node's http/https (the update-check command, the tests) or, in the
 * app, electron-updater's ElectronHttpExecutor over Electron's net (system proxy, OS certificates),
 * passed in by electron/main.
 */
import { EventEmitter } from 'node:events';
import {
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  configureRequestOptions,
  configureRequestUrl,
  HttpExecutor,
  safeGetHeader,
  type DownloadOptions,
} from 'builder-util-runtime';
import { checkFeedUrl } from './feedUrl';
import { UpdateFailure } from './updateFailure';

/** What HttpExecutor needs of a request: Node's ClientRequest and Electron's ClientRequest both fit. */
export interface FeedRequest {
  abort(): void;
  end(data?: Buffer): void;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

type RedirectHandler = (options: RequestOptions) => void;

/** Starts requests: Node's http/https, or electron-updater's ElectronHttpExecutor in the app. */
export interface FeedTransport {
  createRequest(options: RequestOptions, onResponse: (response: IncomingMessage) => void): FeedRequest;
  /** Electron's net reports a manual redirect as an event on the request; Node as a 3xx response. */
  addRedirectHandlers?(
    request: FeedRequest,
    options: RequestOptions,
    reject: (error: Error) => void,
    redirectCount: number,
    handler: RedirectHandler,
  ): void;
}

export const nodeTransport: FeedTransport = {
  // A connection per request (agent: false): HttpExecutor adds a time-out listener to the
  // socket of every request, which a kept-alive socket would collect.
  createRequest: (options, onResponse) =>
    (options.protocol === 'http:' ? httpRequest : httpsRequest)({ ...options, agent: false }, onResponse),
};

/** The only headers an update request carries (lower case). */
const SENT_HEADERS = new Set(['accept', 'user-agent', 'cache-control', 'range']);

/**
 * How long a manifest or signature request may take in all. A wall clock, not the socket's
 * idle time-out HttpExecutor sets: Electron's net has no socket to time out.
 */
export const FEED_REQUEST_TIMEOUT_MS = 30_000;

export interface FetchedFile {
  status: number;
  contentType: string | null;
  body: Buffer;
  /** False when the body was longer than asked for: reading stopped there. */
  complete: boolean;
}

export class FeedHttpExecutor extends HttpExecutor<FeedRequest> {
  constructor(private readonly transport: FeedTransport = nodeTransport) {
    super();
  }

  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): FeedRequest {
    // The rules look at the scheme, the host and credentials (never in these options), not the
    // port. configureRequestUrl always sets both; a missing one makes an address that is refused.
    const target = `${options.protocol}//${options.hostname}${options.path}`;
    if (!checkFeedUrl(target).ok) return refusedRequest(new UpdateFailure('insecure_feed'));
    const safe: RequestOptions & { redirect?: string } = {
      ...options,
      headers: onlySentHeaders(options.headers),
      redirect: 'manual',
    };
    return this.transport.createRequest(safe, callback);
  }

  protected override addRedirectHandlers(
    request: FeedRequest,
    options: RequestOptions,
    reject: (error: Error) => void,
    redirectCount: number,
    handler: RedirectHandler,
  ): void {
    this.transport.addRedirectHandlers?.(request, options, reject, redirectCount, handler);
  }

  /** A file downloaded to `destination`, its checksum checked as it streams (electron-updater's download). */
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error == null ? resolve(destination) : reject(error)),
          responseHandler: null,
        },
        0,
      );
    });
  }

  /**
   * A small file (a manifest, a signature) as its exact bytes, whatever its status; reading
   * stops once it is longer than `maxBytes` (then `complete` is false). Redirects are followed
   * through createRequest, at most HttpExecutor's ten; the whole takes at most
   * FEED_REQUEST_TIMEOUT_MS.
   */
  fetchFile(url: URL, maxBytes: number): Promise<FetchedFile> {
    return new Promise<FetchedFile>((resolveFile, rejectFile) => {
      let abortCurrent = () => {};
      const deadline = setTimeout(() => {
        abortCurrent();
        rejectFile(new Error('Request timed out'));
      }, FEED_REQUEST_TIMEOUT_MS);
      const resolve = (file: FetchedFile) => {
        clearTimeout(deadline);
        resolveFile(file);
      };
      const reject = (error: Error) => {
        clearTimeout(deadline);
        rejectFile(error);
      };
      const ask = (requestOptions: RequestOptions, redirectCount: number) => {
        const request = this.createRequest(requestOptions, (response) => {
          const status = Number(response.statusCode);
          const location = safeGetHeader(response, 'location');
          if (status >= 300 && status < 400 && location != null) {
            // Node's way (Electron's is the 'redirect' event): drain it, ask the next address.
            response.resume();
            if (redirectCount >= this.maxRedirects) reject(this.createMaxRedirectError());
            else ask(HttpExecutor.prepareRedirectUrlOptions(location, requestOptions), redirectCount + 1);
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = (complete: boolean) =>
            resolve({
              status,
              contentType: safeGetHeader(response, 'content-type'),
              body: Buffer.concat(chunks),
              complete,
            });
          response.on('error', reject);
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size > maxBytes) {
              finish(false);
              request.abort();
            }
          });
          response.on('end', () => finish(true));
        });
        abortCurrent = () => request.abort();
        this.addErrorAndTimeoutHandlers(request, reject, FEED_REQUEST_TIMEOUT_MS);
        this.addRedirectHandlers(request, requestOptions, reject, redirectCount, (next) =>
          ask(next, redirectCount + 1),
        );
        request.end();
      };
      const first: RequestOptions = { headers: { accept: '*/*' } };
      configureRequestUrl(url, first);
      configureRequestOptions(first);
      ask(first, 0);
    });
  }
}

function onlySentHeaders(headers: RequestOptions['headers']): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  // An undefined value (electron-updater merges requestHeaders over its own) would make Node throw.
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (SENT_HEADERS.has(name.toLowerCase()) && value !== undefined)
      kept[name] = value as OutgoingHttpHeaders[string];
  }
  return kept;
}

/** A request that was never made: it fails with `error` when HttpExecutor ends it. */
function refusedRequest(error: Error): FeedRequest {
  const request = new EventEmitter() as EventEmitter & FeedRequest;
  request.abort = () => undefined;
  request.end = () => {
    process.nextTick(() => request.emit('error', error));
  };
  return request;
}
