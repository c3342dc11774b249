import type Database from 'better-sqlite3';
import type { ReportCache } from '../../electron/core/cache/reportCache';
import type { Report } from '../../shared/model';

/**
 * The cache's current SQLite connection, for tests that look at tables the cache has no
 * method for (history's rows, a query plan). It is the connection's own: a file set aside and
 * started afresh gives another one, so ask again after that.
 */
export function cacheDatabase(cache: ReportCache): Database.Database {
  return (cache as unknown as { connection: { db: Database.Database } }).connection.db;
}

/** Every report of the scope as stored, in id order (the list query, 100 a page). */
export function cachedReports(cache: ReportCache, scope: string): Report[] {
  const out: Report[] = [];
  for (let page = 1; ; page++) {
    const { reports, lastPage } = cache.query(scope, {
      search: '',
      search_by: 'url',
      project: '',
      result: null,
      sort_by: 'id',
      sort: 'asc',
      per_page: 100,
      page,
    }).page;
    out.push(...reports);
    if (lastPage === null || page >= lastPage) return out;
  }
}
