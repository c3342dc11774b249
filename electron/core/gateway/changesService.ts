/**
 * The active profile's change log for the front ends: "Changes since …" (counts and the changed
 * reports, cache/changeSummary.ts), which rows of a page are new, marking changes as seen, and
 * the log itself (the CLI's `cache changes`). Cache only: no keychain, no network.
 */
import {
  CHANGES_SHOWN,
  type ChangesSummary,
  type ChannelParsedInput,
  type ReportChange,
} from '../../../shared/contract';
import { countChanges, netChanges } from '../cache/changeSummary';
import type { ReportCache } from '../cache/reportCache';
import type { Connections } from './connection';

export class ChangesService {
  constructor(
    private readonly connections: Connections,
    private readonly cache: ReportCache,
    private readonly now: () => Date,
  ) {}

  list(input: ChannelParsedInput<'changes:list'>): { changes: ReportChange[] } {
    const scope = this.connections.activeScope();
    if (!scope) return { changes: [] };
    const since = input?.since === undefined ? undefined : new Date(input.since).toISOString();
    const changes = this.cache.local
      .read(() => this.cache.changes.list(scope, { since }))
      .map(({ id, kind, at, fields }) => ({ id, kind, at, fields }));
    return { changes };
  }

  summary(): ChangesSummary {
    const scope = this.connections.activeScope();
    if (!scope) return { profileId: null, since: null, counts: countChanges([]), items: [], more: 0 };
    const { local, changes } = this.cache;
    const net = netChanges(local.read(() => changes.list(scope, { unseenOnly: true })));
    return {
      profileId: scope,
      since: local.read(() => changes.since(scope)),
      counts: countChanges(net),
      items: net.slice(0, CHANGES_SHOWN).map((change) => ({
        ...change,
        report: change.kind === 'removed' ? null : (this.cache.getReport(scope, change.id)?.report ?? null),
      })),
      more: Math.max(0, net.length - CHANGES_SHOWN),
    };
  }

  marks({ ids }: ChannelParsedInput<'changes:marks'>): { newIds: string[] } {
    const scope = this.connections.activeScope();
    return { newIds: scope ? this.cache.local.read(() => this.cache.changes.newAmong(scope, ids)) : [] };
  }

  /** Some reports' changes (opened), or all (then "Changes since …" starts now). */
  markSeen(input: ChannelParsedInput<'changes:markSeen'>): ChangesSummary {
    const scope = this.connections.activeScope();
    if (scope) {
      const ids = input?.ids;
      const { local, changes } = this.cache;
      local.transaction(() => {
        changes.markSeen(scope, ids);
        if (ids === undefined) changes.setSince(scope, this.now().toISOString());
      });
    }
    return this.summary();
  }
}
