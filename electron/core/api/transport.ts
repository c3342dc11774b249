/**
 * The wire under the API client (client.ts): a body read up to a size limit, a wait that a
 * signal cuts short, and how a refused redirect looks when Electron's fetch is the transport.
 */
import { AppFailure, appError, type AppError } from '../../../shared/errors';
import { tooLarge } from './failures';

/** The error of a request its caller cancelled. */
export function cancelledError(): AppError {
  return appError('request.cancelled');
}

/** Waits `ms`, or rejects with a cancelled AppFailure as soon as `signal` aborts. */
export function sleepWithSignal(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AppFailure(cancelledError()));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AppFailure(cancelledError()));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reads the body, refusing it as soon as it passes `limit` bytes (declared or streamed). */
export async function readLimitedBody(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw new AppFailure(tooLarge(response.status, limit, ''));
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel().catch(() => {});
      const start = chunks.length > 0 ? new TextDecoder().decode(chunks[0].slice(0, 1024)) : '';
      throw new AppFailure(tooLarge(response.status, limit, start));
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * How Electron's net.fetch answers redirect: 'manual': it rejects with "Redirect was cancelled"
 * (its ClientRequest emits 'redirect', nobody calls followRedirect(), and the request dies;
 * electron/electron#43715) where Node's fetch resolves with the 3xx. Read as a network failure it
 * would be retried and shown as "could not be reached"; it is the address redirecting.
 */
export function isRedirectRefusal(thrown: unknown): boolean {
  return (
    thrown instanceof Error &&
    (thrown.message === 'Redirect was cancelled' || thrown.message.includes("redirect policy was 'error'"))
  );
}
