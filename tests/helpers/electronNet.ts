/**
 * A stand-in for Electron's `net.fetch` (the runtime cannot run here) that behaves like it where
 * the client can tell the difference. It sends real requests (Node's fetch underneath) and then
 * applies Electron's documented redirect handling:
 *  - redirect: 'manual' — Electron's ClientRequest emits 'redirect'; net.fetch does not listen, so
 *    followRedirect() is never called and the request dies with "Redirect was cancelled": the
 *    promise REJECTS instead of resolving with the 3xx as Node's fetch does
 *    (electron/electron#43715; lib/browser/api/net-client-request.ts).
 *  - redirect: 'error' — rejects with "Attempted to redirect, but redirect policy was 'error'".
 *  - redirect: 'follow' (the default) — follows, as Node's fetch does.
 * Electron only treats a 3xx with a Location header as a redirect; one without is a response.
 * Electron's net.fetch takes a string or a Request, not a URL object (main.ts passes href).
 */
export async function electronLikeNetFetch(input: string | Request, init?: RequestInit): Promise<Response> {
  if (typeof input !== 'string' && !(input instanceof Request)) {
    throw new TypeError('net.fetch takes a URL string or a Request');
  }
  const mode = init?.redirect ?? 'follow';
  if (mode === 'follow') return fetch(input, init);
  const response = await fetch(input, { ...init, redirect: 'manual' });
  if (response.status >= 300 && response.status <= 399 && response.headers.has('location')) {
    await response.body?.cancel();
    throw new Error(
      mode === 'manual' ? 'Redirect was cancelled' : "Attempted to redirect, but redirect policy was 'error'",
    );
  }
  return response;
}

/** The two transports the API client runs over: Node's fetch (CLI, preview) and Electron's (the app). */
export type TransportName = 'node' | 'electron';

export function transportFetch(name: TransportName): typeof fetch {
  return name === 'electron'
    ? (input, init) => electronLikeNetFetch(input instanceof URL ? input.href : input, init)
    : (input, init) => fetch(input, init);
}

/** Which transport the client suite runs over; set by tests/integration/clientElectronNet.test.ts. */
export const clientSuiteTransport: { name: TransportName } = { name: 'node' };
