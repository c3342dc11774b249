/**
 * The full sync that keeps every report available offline: one at a time in this process (another process's sync
 * of the same scope is refused by runFullSync's lease), cancellable, with progress events.
 */
import type { SyncSummary } from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import { runFullSync, SYNC_RUNNING_MESSAGE } from '../cache/fullSync';
import type { ReportCache } from '../cache/reportCache';
import type { EventHub } from '../events';
import { isUnauthorized, type Connections } from './connection';
import type { OnlinePolicy } from './onlinePolicy';

export interface SyncServiceOptions {
  connections: Connections;
  policy: OnlinePolicy;
  cache: ReportCache;
  events: EventHub;
  now: () => Date;
  /** How long a full sync's cross-process claim lasts unrenewed (default 20 s; tests shorten it). */
  leaseMs?: number;
}

export class SyncService {
  private running: { scope: string; controller: AbortController } | null = null;

  constructor(private readonly options: SyncServiceOptions) {}

  /** True while this process runs a sync. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Stops the running sync (any scope, or only `scope`'s); answers whether one was running. */
  cancel(scope?: string): boolean {
    const running = this.running;
    if (!running || (scope !== undefined && running.scope !== scope)) return false;
    running.controller.abort();
    return true;
  }

  async run(): Promise<SyncSummary> {
    if (this.running) {
      // Same refusal as a sync running in another process (runFullSync's lease).
      throw new AppFailure(appError('busy', SYNC_RUNNING_MESSAGE, { reason: 'sync_running' }));
    }
    const { connections, policy, cache, events, now, leaseMs } = this.options;
    const connection = await connections.active();
    const controller = new AbortController();
    this.running = { scope: connection.scope, controller };
    let client = connections.client(connection);
    // Pages after the first come several at a time (runFullSync): a 429 on one of them goes
    // back to runFullSync, which drops to one page at a time, instead of being retried here.
    const listPage = (page: number, signal: AbortSignal | undefined) =>
      client.listReports(
        { per_page: 100, sort_by: 'id', sort: 'asc', page },
        page === 1 ? { signal } : { signal, retryRateLimited: false },
      );
    // A 401 on the first page re-reads the key once (see withCurrentKey); later pages were
    // already asked with this key, and mixing two keys' listings in one run is never right.
    const firstPage = async (signal: AbortSignal | undefined) => {
      try {
        return await listPage(1, signal);
      } catch (thrown) {
        if (!isUnauthorized(thrown)) throw thrown;
        const again = await connections.withRereadKey(connection);
        if (!again) throw thrown;
        client = connections.client(again);
        return listPage(1, signal);
      }
    };
    try {
      const summary = await runFullSync({
        cache,
        scope: connection.scope,
        signal: controller.signal,
        now,
        leaseMs,
        fetchPage: (page, signal) => (page === 1 ? firstPage(signal) : listPage(page, signal)),
        // A cached report the read did not see, between two pages: gone (404), or skipped.
        fetchReport: (id, signal) =>
          client.getReport(id, { signal }).catch((thrown: unknown) => {
            if (thrown instanceof AppFailure && thrown.error.kind === 'not_found') return null;
            throw thrown;
          }),
        onProgress: (progress) => events.emit('sync:progress', { ...progress, profileId: connection.scope }),
      });
      policy.settled();
      return summary;
    } catch (thrown) {
      policy.settled(thrown);
      throw thrown;
    } finally {
      this.running = null;
    }
  }
}
