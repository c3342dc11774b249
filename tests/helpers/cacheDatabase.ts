import type Database from 'better-sqlite3';
import type { ReportCache } from '../../electron/core/cache/reportCache';

/**
 * The cache's current SQLite connection, for tests that look at tables the cache has no
 * method for (history's rows, a query plan). It is the connection's own: a file set aside and
 * started afresh gives another one, so ask again after that.
 */
export function cacheDatabase(cache: ReportCache): Database.Database {
  return (cache as unknown as { connection: { db: Database.Database } }).connection.db;
}
