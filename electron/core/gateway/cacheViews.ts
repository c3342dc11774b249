/**
 * What the cache holds for the active connection: its status, its projects, the overview's
 * result counts, and clearing it. None of these touches the keychain or the network.
 */
import type { CacheOverview, CacheStatus, ChannelParsedInput, ResultCounts } from '../../../shared/contract';
import { normalizeListQuery } from '../../../shared/model';
import { LAST_FULL_SYNC_META, type ReportCache } from '../cache/reportCache';
import { leaseOwnerIsGone } from '../cache/syncLease';
import type { Connections } from './connection';
import type { SyncService } from './syncService';

export class CacheViews {
  constructor(
    private readonly connections: Connections,
    private readonly cache: ReportCache,
    private readonly sync: SyncService,
    private readonly now: () => Date,
    /** The data dir, when other local users can read it (reported in the status). */
    private readonly exposedDataDir?: string,
  ) {}

  status(): CacheStatus {
    const scope = this.connections.activeScope();
    const status = scope
      ? this.cache.status(scope)
      : { reportCount: 0, sizeBytes: 0, lastFullSyncAt: null, lastQuickRefreshAt: null };
    // A sync of this scope may be running in another process (its unexpired lease). This
    // window's own background refresh is no sync "elsewhere": a sync asked now waits for it.
    const lease = scope ? this.cache.leases.held(scope) : null;
    const elsewhere =
      lease !== null && lease.expiresAt > this.now().getTime() && !leaseOwnerIsGone(lease.owner);
    const background = scope !== null && this.sync.backgroundFor(scope);
    return {
      profileId: scope,
      ...status,
      syncing: !background && (this.sync.busy || elsewhere),
      ...(this.exposedDataDir ? { exposedDataDir: this.exposedDataDir } : {}),
    };
  }

  /** Deletes the active scope's offline copy; its change log and seen marks stay (local.sqlite). */
  clear(): CacheStatus {
    const scope = this.connections.activeScope();
    if (scope) {
      this.sync.cancel(scope);
      this.cache.clearCopy(scope);
    }
    return this.status();
  }

  projects(): string[] {
    const scope = this.connections.activeScope();
    return scope ? this.cache.projects(scope) : [];
  }

  /** Result counts of the synced cache for the list's filters; null before a full sync. */
  overview(input: ChannelParsedInput<'cache:overview'>): CacheOverview | null {
    const scope = this.connections.activeScope();
    if (!scope) return null;
    const lastFullSyncAt = this.cache.getMeta(scope, LAST_FULL_SYNC_META);
    if (lastFullSyncAt === null) return null;
    const rows = this.cache.resultCounts(scope, normalizeListQuery(input));
    const empty = (): ResultCounts => ({ good: 0, decent: 0, bad: 0, other: 0 });
    const counts = empty();
    const byProject = new Map<string, ResultCounts>();
    for (const row of rows) {
      const bucket =
        row.result === 'good' || row.result === 'decent' || row.result === 'bad' ? row.result : 'other';
      counts[bucket] += row.n;
      let project = byProject.get(row.project);
      if (!project) byProject.set(row.project, (project = empty()));
      project[bucket] += row.n;
    }
    const projects = [...byProject.entries()]
      .map(([project, c]) => ({ project, ...c }))
      // Named projects by name; reports without a project last.
      .sort((a, b) => (a.project === '' ? 1 : b.project === '' ? -1 : a.project < b.project ? -1 : 1));
    return { counts, projects, lastFullSyncAt };
  }
}
