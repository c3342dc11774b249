/**
 * Update requests over Electron's `net` (system proxy, OS certificates), as electron-updater's
 * ElectronHttpExecutor makes them: `net.request` in electron-updater's own session partition,
 * passed in by electron/main (the core never imports electron). FeedHttpExecutor always asks
 * `redirect: 'manual'`, so Electron reports a redirect as a 'redirect' event: the request is
 * aborted (Electron then does not fail it) and asked again through the executor, which checks
 * the new address first (https://www.electronjs.org/docs/latest/api/client-request).
 */
import type { IncomingMessage, RequestOptions } from 'node:http';
import { HttpExecutor } from 'builder-util-runtime';
import type { FeedRequest, FeedTransport } from './feedHttp';

/** What is used of Electron's ClientRequest. */
export interface ElectronClientRequest extends FeedRequest {
  on(event: 'response', listener: (response: IncomingMessage) => void): unknown;
  on(event: 'redirect', listener: (status: number, method: string, redirectUrl: string) => void): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/** What is used of Electron's `net`. */
export interface ElectronNet {
  request(options: RequestOptions & { session: unknown; redirect?: string }): ElectronClientRequest;
}

/** HttpExecutor's own limit. */
const MAX_REDIRECTS = 10;

/** `session`: asked at each request (Electron's session exists only once the app is ready). */
export function electronNetTransport(net: ElectronNet, session: () => unknown): FeedTransport {
  return {
    createRequest(options, onResponse) {
      const request = net.request({ ...options, session: session() });
      request.on('response', onResponse);
      return request;
    },
    addRedirectHandlers(request, options, reject, redirectCount, handler) {
      (request as ElectronClientRequest).on('redirect', (_status, _method, redirectUrl) => {
        request.abort();
        if (redirectCount > MAX_REDIRECTS) reject(new Error(`Too many redirects (> ${MAX_REDIRECTS})`));
        else handler(HttpExecutor.prepareRedirectUrlOptions(redirectUrl, options));
      });
    },
  };
}
