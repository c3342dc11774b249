/**
 * The runs that keep a profile's reports available offline: the full sync (every report) and
 * the quick refresh (the newest ones). One at a time in this process — a background run (the
 * scheduler's) never starts beside another, and one the user asks for waits for a background
 * run to end first — and one per profile across processes (the lease in cache/syncLease.ts).
 * Cancellable, with progress events; every run that ends is announced as `offline:refreshed`.
 */
import { dirname } from 'node:path';
import type { SyncSummary } from '../../../shared/contract';
import { AppFailure } from '../../../shared/errors';
import type { ReportPage } from '../../../shared/report';
import { runFullSync, syncRunningFailure } from '../cache/fullSync';
import { runQuickRefresh } from '../cache/quickRefresh';
import type { ReportCache } from '../cache/reportCache';
import type { EventHub } from '../events';
import { offlineOptionsOf } from '../offline/options';
import type { ProfileStore } from '../profiles/profileStore';
import { storageError, storageFailure, withOfflineReports } from '../storageFailure';
import { isNotFound, isUnauthorized, type Connection, type Connections } from './connection';
import type { OnlinePolicy } from './onlinePolicy';

export interface SyncServiceOptions {
  connections: Connections;
  profiles: ProfileStore;
  policy: OnlinePolicy;
  cache: ReportCache;
  events: EventHub;
  now: () => Date;
  /** How long a full sync's cross-process claim lasts unrenewed (default 20 s; tests shorten it). */
  leaseMs?: number;
}

export type SyncMode = 'full' | 'quick';

export interface RunOptions {
  mode?: SyncMode;
  /** Another profile than the active one (the scheduler keeps every such profile current). */
  profileId?: string;
  /** The scheduler's: refused (busy) while anything else runs here, instead of waiting. */
  background?: boolean;
}

interface Running {
  scope: string;
  mode: SyncMode;
  background: boolean;
  controller: AbortController;
  done: Promise<unknown>;
}

export class SyncService {
  private running: Running | null = null;
  private readonly observers = new Set<(scope: string) => void>();

  constructor(private readonly options: SyncServiceOptions) {}

  /** True while this process runs a sync or refresh. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** What this process runs for `scope` now. */
  runningFor(scope: string): SyncMode | null {
    return this.running?.scope === scope ? this.running.mode : null;
  }

  /** True while this process runs a background run (the scheduler's) of `scope`. */
  backgroundFor(scope: string): boolean {
    return this.running?.scope === scope && this.running.background;
  }

  /** Told when a run of a scope starts and when it ends (the offline state changed). */
  observe(observer: (scope: string) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Stops the running sync (any scope, or only `scope`'s); answers whether one was running. */
  cancel(scope?: string): boolean {
    const running = this.running;
    if (!running || (scope !== undefined && running.scope !== scope)) return false;
    running.controller.abort();
    return true;
  }

  async run(options: RunOptions = {}): Promise<SyncSummary> {
    const waitingFor = this.running;
    if (waitingFor && (options.background || !waitingFor.background)) throw syncRunningFailure();
    // The user's run after the scheduler's (a quick refresh is one request or two).
    if (waitingFor) await waitingFor.done.catch(() => undefined);
    if (this.running) throw syncRunningFailure();
    const { connections } = this.options;
    const connection =
      options.profileId === undefined
        ? await connections.active()
        : await connections.forProfileId(options.profileId);
    if (this.running) throw syncRunningFailure();
    const mode = options.mode ?? 'full';
    const controller = new AbortController();
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const running: Running = {
      scope: connection.scope,
      mode,
      background: options.background === true,
      controller,
      done,
    };
    this.running = running;
    this.tell(connection.scope);
    try {
      const summary = await this.runAgainOnNewCopy(connection.scope, () =>
        this.runNow(connection, mode, controller.signal, running.background),
      );
      const profile = this.options.profiles.get(connection.scope);
      this.options.events.emit('offline:refreshed', {
        profileId: connection.scope,
        profileName: profile?.name ?? '',
        summary,
        notifyBad: offlineOptionsOf(profile).notifyBad,
      });
      return summary;
    } finally {
      this.running = null;
      settle();
      this.tell(connection.scope);
    }
  }

  /**
   * Runs `run`; when the offline copy was found damaged meanwhile (set aside, a new one started:
   * its lease and progress went with the old file), once more into the new copy. A full disk or
   * a read-only folder is told as such, with the reports still available offline.
   */
  private async runAgainOnNewCopy(scope: string, run: () => Promise<SyncSummary>): Promise<SyncSummary> {
    const { cache } = this.options;
    const readOnly = cache.readOnly;
    if (readOnly) {
      throw new AppFailure(
        storageError('read_only', readOnly.code, { folder: readOnly.folder, place: 'data_folder' }),
      );
    }
    const generation = cache.fileGeneration;
    try {
      return await run();
    } catch (thrown) {
      if (
        cache.fileGeneration !== generation &&
        !(thrown instanceof AppFailure && thrown.error.kind === 'cancelled')
      )
        return run();
      const offlineReports = () => cache.status(scope).reportCount;
      const mapped = storageFailure(thrown, { folder: dirname(cache.file), place: 'data_folder' }) ?? thrown;
      throw withOfflineReports(mapped, offlineReports);
    }
  }

  private tell(scope: string): void {
    for (const observer of this.observers) {
      try {
        observer(scope);
      } catch {
        // An observer must not break a run.
      }
    }
  }

  private async runNow(
    connection: Connection,
    mode: SyncMode,
    signal: AbortSignal,
    background: boolean,
  ): Promise<SyncSummary> {
    const { connections, policy, cache, events, now, leaseMs } = this.options;
    let client = connections.client(connection);
    // Pages after the first come several at a time (runFullSync): a 429 on one of them goes
    // back to the run, which drops to one page at a time, instead of being retried here.
    const listPage = (page: number, pageSignal: AbortSignal | undefined): Promise<ReportPage> =>
      client.listReports(
        { per_page: 100, sort_by: 'id', sort: mode === 'quick' ? 'desc' : 'asc', page },
        page === 1 ? { signal: pageSignal } : { signal: pageSignal, retryRateLimited: false },
      );
    // A 401 on the first page re-reads the key once (see withCurrentKey); later pages were
    // already asked with this key, and mixing two keys' listings in one run is never right.
    const firstPage = async (pageSignal: AbortSignal | undefined) => {
      try {
        return await listPage(1, pageSignal);
      } catch (thrown) {
        if (!isUnauthorized(thrown)) throw thrown;
        const again = await connections.withRereadKey(connection);
        if (!again) throw thrown;
        client = connections.client(again);
        return listPage(1, pageSignal);
      }
    };
    const fetchPage = (page: number, pageSignal: AbortSignal) =>
      page === 1 ? firstPage(pageSignal) : listPage(page, pageSignal);
    const scope = connection.scope;
    try {
      const summary =
        mode === 'quick'
          ? await runQuickRefresh({ cache, scope, signal, now, leaseMs, fetchPage })
          : await runFullSync({
              cache,
              scope,
              signal,
              now,
              leaseMs,
              fetchPage,
              // A cached report the read did not see, between two pages: gone (404), or skipped.
              fetchReport: (id, reportSignal) =>
                client.getReport(id, { signal: reportSignal }).catch((thrown: unknown) => {
                  if (isNotFound(thrown)) return null;
                  throw thrown;
                }),
              onProgress: (progress) =>
                events.emit('sync:progress', {
                  ...progress,
                  profileId: scope,
                  ...(background ? { background } : {}),
                }),
            });
      if (connections.activeScope() === scope) policy.settled();
      return summary;
    } catch (thrown) {
      if (connections.activeScope() === scope) policy.settled(thrown);
      throw thrown;
    }
  }
}
