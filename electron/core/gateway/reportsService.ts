/**
 * Reports and the account, read online first and written through to the cache (see
 * OnlinePolicy for what happens when the service cannot be reached).
 */
import type {
  AccountResult,
  ChannelParsedInput,
  ReportPageResult,
  ReportResult as SourcedReport,
} from '../../../shared/contract';
import { normalizeListQuery, type ListQuery, type Report } from '../../../shared/model';
import type { ReportCache } from '../cache/reportCache';
import type { Accounts } from './accounts';
import { isNotFound, type Connection, type Connections } from './connection';
import type { OnlinePolicy } from './onlinePolicy';

export interface ListOptions {
  signal?: AbortSignal;
  retryRateLimited?: boolean;
  /** A walk over many pages: write the page through once the walk pauses (putReportsLater). */
  deferWrite?: boolean;
}

export class ReportsService {
  constructor(
    private readonly connections: Connections,
    private readonly policy: OnlinePolicy,
    private readonly cache: ReportCache,
    private readonly accounts: Accounts,
    private readonly now: () => Date,
  ) {}

  /** `options` pass to the client: a signal, and whether it retries a 429 itself (a walk paces them). */
  list(query: ListQuery, options: ListOptions = {}): Promise<ReportPageResult> {
    return this.policy.read<ReportPageResult>(
      async (connection) => {
        const page = await this.connections.client(connection).listReports(query, options);
        const fetchedAt = this.now().toISOString();
        // Written right after this answer (or once a walk pauses), before any later use of the cache.
        if (options.deferWrite) this.cache.putReportsLater(connection.scope, page.reports, fetchedAt);
        else this.cache.putReportsSoon(connection.scope, page.reports, fetchedAt);
        return { ...page, source: 'network' as const, fetchedAt };
      },
      (scope) => {
        const status = this.cache.status(scope);
        if (status.reportCount === 0) return null;
        const { page, fetchedAt } = this.cache.query(scope, normalizeListQuery(query));
        const age = fetchedAt ?? status.lastFullSyncAt ?? this.now().toISOString();
        return { ...page, source: 'cache' as const, fetchedAt: age };
      },
    );
  }

  get(id: string): Promise<SourcedReport> {
    return this.policy.read<SourcedReport>(
      async (connection) => {
        const report = await this.connections
          .client(connection)
          .getReport(id)
          .catch((thrown: unknown) => {
            // Gone from the service: gone from this connection's cache too (and news).
            if (isNotFound(thrown))
              this.cache.removeReport(connection.scope, id, { at: this.now().toISOString() });
            throw thrown;
          });
        const fetchedAt = this.now().toISOString();
        this.cache.putReport(connection.scope, report, fetchedAt);
        return { report, source: 'network' as const, fetchedAt };
      },
      (scope) => {
        const cached = this.cache.getReport(scope, id);
        return cached
          ? { report: cached.report, source: 'cache' as const, fetchedAt: cached.fetchedAt }
          : null;
      },
    );
  }

  account(): Promise<AccountResult> {
    return this.policy.read<AccountResult>(
      async (connection) => {
        const account = await this.connections.client(connection).getAccount();
        this.accounts.remember(connection.scope, account);
        return { account, source: 'network' as const, fetchedAt: this.now().toISOString() };
      },
      (scope) => {
        const cached = this.cache.getAccount(scope);
        return cached
          ? { account: cached.account, source: 'cache' as const, fetchedAt: cached.fetchedAt }
          : null;
      },
    );
  }

  create(fields: ChannelParsedInput<'reports:create'>): Promise<Report> {
    return this.policy.write((connection) =>
      this.cached(connection, this.connections.client(connection).createReport(fields)),
    );
  }

  update({ id, changes }: ChannelParsedInput<'reports:update'>): Promise<Report> {
    return this.policy.write((connection) =>
      this.cached(connection, this.connections.client(connection).updateReport(id, changes)),
    );
  }

  delete(id: string): Promise<{ deleted: string }> {
    return this.policy.write(async (connection) => {
      try {
        await this.connections.client(connection).deleteReport(id);
      } catch (thrown) {
        if (isNotFound(thrown)) this.cache.removeReport(connection.scope, id, { own: true });
        throw thrown;
      }
      // The user's own deletion: not news for "Changes since …".
      this.cache.removeReport(connection.scope, id, { own: true });
      return { deleted: id };
    });
  }

  private async cached(connection: Connection, written: Promise<Report>): Promise<Report> {
    const report = await written;
    // The user's own change: not news for "Changes since …".
    this.cache.putReport(connection.scope, report, this.now().toISOString(), { own: true });
    return report;
  }
}
