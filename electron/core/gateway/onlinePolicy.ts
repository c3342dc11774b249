/**
 * The online/offline policy. Online first: reads go to the service; a read that fails with a
 * network error or a time-out is answered from the cache and connectivity turns offline.
 * While offline, reads go straight to the cache (no time-out per click) while a light probe
 * runs; writes are refused with an `offline` error (nothing is queued).
 */
import { AppFailure, appError, type AppError } from '../../../shared/errors';
import type { Connection, Connections } from './connection';
import type { Connectivity } from './connectivity';

export function isUnreachable(error: AppError): boolean {
  return error.kind === 'network' || error.kind === 'timeout';
}

export class OnlinePolicy {
  constructor(
    private readonly connections: Connections,
    private readonly connectivity: Connectivity,
    /** Answer reads from the cache when the service cannot be reached (the CLI's --no-cache turns it off). */
    private readonly offlineFallback: boolean,
  ) {}

  /** Marks connectivity after work outside read/write (a full sync): `thrown` is its failure, if any. */
  settled(thrown?: unknown): void {
    if (thrown === undefined) this.connectivity.markOnline();
    else if (thrown instanceof AppFailure && isUnreachable(thrown.error))
      this.connectivity.markOffline(thrown.error);
  }

  /**
   * Runs a read against the service; on a network error or time-out (or while already
   * offline) answers from the cache instead. `fromCache` returns null when the cache has
   * nothing for this read, and then the original error stands.
   */
  async read<T>(
    online: (connection: Connection) => Promise<T>,
    fromCache: (scope: string) => T | null,
  ): Promise<T> {
    const connection = await this.connections.active();
    const fallback = this.offlineFallback;
    if (!this.connectivity.online && fallback) {
      const cached = fromCache(connection.scope);
      if (cached !== null) {
        void this.connectivity.check();
        return cached;
      }
    }
    try {
      const value = await this.connections.withCurrentKey(connection, online);
      this.connectivity.markOnline();
      return value;
    } catch (thrown) {
      if (!(thrown instanceof AppFailure) || !isUnreachable(thrown.error)) throw thrown;
      this.connectivity.markOffline(thrown.error);
      if (!fallback) throw thrown;
      const cached = fromCache(connection.scope);
      if (cached !== null) return cached;
      const own = appError(
        'offline.nothing_cached',
        {},
        { reason: 'nothing_cached', details: { cause: thrown.error } },
      );
      // The cause first ("… could not be reached: …"), then why nothing can be shown instead.
      throw new AppFailure({ ...own, message: `${thrown.error.message} ${own.message}` });
    }
  }

  /** Runs a write; unreachable → an `offline` error that says the change was not made. */
  async write<T>(action: (connection: Connection) => Promise<T>): Promise<T> {
    const connection = await this.connections.active();
    try {
      const value = await this.connections.withCurrentKey(connection, action);
      this.connectivity.markOnline();
      return value;
    } catch (thrown) {
      if (!(thrown instanceof AppFailure) || !isUnreachable(thrown.error)) throw thrown;
      this.connectivity.markOffline(thrown.error);
      throw new AppFailure(
        thrown.error.kind === 'network'
          ? appError('offline.change_not_made')
          : appError('timeout.change_unknown'),
      );
    }
  }
}
