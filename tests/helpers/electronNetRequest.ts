/**
 * A stand-in for Electron's `net.request` (the runtime cannot run here) that behaves as its
 * documentation and source say where electron-updater's code can tell, with real requests
 * (Node's http) underneath (https://www.electronjs.org/docs/latest/api/client-request,
 * lib/browser/api/net-client-request.ts):
 *  - options are Node-like (protocol, hostname, port, path, headers) plus `session` and
 *    `redirect` ('follow' by default, 'error', 'manual');
 *  - a 3xx with a Location under `redirect: 'manual'` emits 'redirect' (status, method, url,
 *    headers); unless followRedirect() is called during that event, the request fails with
 *    "Redirect was cancelled" — except when it was aborted, which ends it quietly;
 *  - abort() emits 'abort' (never 'aborted', Node's name), not 'error';
 *  - there is no 'socket' event (so no socket time-out applies);
 *  - the response is an IncomingMessage-like stream with lower-case `headers`.
 * It records every request's options, the session included.
 */
import { EventEmitter } from 'node:events';
import {
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import type { ElectronClientRequest, ElectronNet } from '../../electron/core/updates/electronTransport';

export interface FakeElectronNet extends ElectronNet {
  requests: (RequestOptions & { session: unknown; redirect?: string })[];
}

export function fakeElectronNet(): FakeElectronNet {
  const requests: FakeElectronNet['requests'] = [];
  return {
    requests,
    request(options) {
      requests.push(options);
      const request = new EventEmitter() as EventEmitter & ElectronClientRequest & { followRedirect(): void };
      let aborted = false;
      let followed = false;
      let underlying: ClientRequest | null = null;
      const policy = options.redirect ?? 'follow';
      const send = (url: URL) => {
        underlying = httpRequest(
          url,
          { method: options.method ?? 'GET', headers: options.headers, agent: false },
          (response: IncomingMessage) => {
            const location = response.headers.location;
            const status = response.statusCode ?? 0;
            if (status >= 300 && status < 400 && location) {
              response.resume();
              const next = new URL(location, url);
              if (policy === 'follow') return send(next);
              if (policy === 'error') {
                request.emit('error', new Error("Attempted to redirect, but redirect policy was 'error'"));
                return;
              }
              followed = false;
              request.emit('redirect', status, 'GET', next.href, response.headers);
              if (followed) send(next);
              else if (!aborted) request.emit('error', new Error('Redirect was cancelled'));
              return;
            }
            if (!aborted) request.emit('response', response);
          },
        );
        underlying.on('error', (error) => {
          if (!aborted) request.emit('error', error);
        });
        underlying.end();
      };
      request.followRedirect = () => {
        followed = true;
      };
      request.abort = () => {
        if (aborted) return;
        aborted = true;
        underlying?.destroy();
        process.nextTick(() => request.emit('abort'));
      };
      request.end = () => {
        const url = `${options.protocol ?? 'https:'}//${options.hostname}${options.port ? `:${options.port}` : ''}${options.path ?? '/'}`;
        send(new URL(url));
      };
      return request;
    },
  };
}
