/**
 * Clearing what the cache holds for a scope (or for all), and listing the scopes it holds. Only
 * the offline copy is the cache's to clear lightly: the change log and seen marks live in
 * local.sqlite and go only when the scope itself goes (ReportCache.clearScope, clearAll).
 */
import type Database from 'better-sqlite3';
import { crashPoint } from '../crashPoints';
import type { LocalStore } from '../local/localStore';
import type { CacheConnection } from './cacheConnection';
import { CACHE_ID_META } from './changeOutbox';
import type { HistoryReads } from './history';

/** The tables of one scope's offline copy. */
const COPY_TABLES = ['reports', 'report_counts', 'accounts', 'meta'];

export interface ScopeContext {
  statement: (sql: string) => Database.Statement;
  transaction: <T>(fn: () => T) => T;
  connection: CacheConnection;
  local: LocalStore;
  history: HistoryReads;
}

/**
 * Deletes a scope's offline copy (`cache clear`): what can be fetched again. Its change log and
 * seen marks stay (entries still in the outbox too: they move to the log after this commits):
 * the next full sync fills the copy without logging it as news.
 */
export function clearCopy(context: ScopeContext, scope: string): void {
  const { connection, statement, transaction, history } = context;
  connection.againAfterReset(() =>
    transaction(() => {
      // History first: it goes at once, not one report at a time through the triggers.
      history.clearScope(scope);
      for (const table of COPY_TABLES) statement(`DELETE FROM ${table} WHERE scope = ?`).run(scope);
      crashPoint('cache.clearing');
    }),
  );
}

/** Every scope with rows in the cache or the change log; scope '' is the file's own (its id), no connection's. */
export function scopesOf(context: ScopeContext): string[] {
  const { connection, statement, local } = context;
  const rows = connection.read(
    () =>
      statement(
        `SELECT scope FROM reports UNION SELECT scope FROM report_counts UNION SELECT scope FROM accounts
         UNION SELECT scope FROM meta WHERE scope <> ''`,
      ).all() as { scope: string }[],
  );
  const logged = local.read(() => local.changes.scopes());
  return [...new Set([...rows.map((row) => row.scope), ...logged])].sort();
}

/** Deletes every scope's copy, change log and seen marks; the file keeps its id. */
export function clearAll(context: ScopeContext): void {
  const { connection, statement, transaction, local, history } = context;
  connection.againAfterReset(() =>
    transaction(() => {
      history.clearAll();
      for (const table of ['reports', 'report_counts', 'accounts']) statement(`DELETE FROM ${table}`).run();
      // The change log names what came from this file by its id.
      statement("DELETE FROM meta WHERE NOT (scope = '' AND key = ?)").run(CACHE_ID_META);
      // Rows deleted above took their trigrams along; this also drops any left by a failed write.
      statement('DELETE FROM report_search').run();
    }),
  );
  // After the commit, which moved the outbox's entries to the log: the log is emptied of them too.
  local.transaction(() => local.changes.clear());
}
