/**
 * The history's sums brought up to date (schema version 8, migrations/v8HistoryPending.ts):
 * the changes the triggers appended to history_pending during a transaction are summed per
 * hour and per day, added to history_buckets and history_project_buckets, and removed — once,
 * at the end of the transaction that made them (cacheConnection.ts), so a page of 100 changed
 * reports adds to a few dozen bucket rows instead of upserting eight per point change.
 */
import type Database from 'better-sqlite3';

/** The UTC day of a UTC hour number, floored (also before 1970). */
const DAY_OF_HOUR = '((hour - ((hour % 24) + 24) % 24) / 24)';

/** history_pending summed per (…, size, bucket, result), with `columns` (scope, and project or not). */
const SUMS = (columns: string) => `
  SELECT ${columns}, s.size, CASE s.size WHEN 'h' THEN hour ELSE ${DAY_OF_HOUR} END AS b, result,
    sum(delta), sum(generated)
  FROM history_pending, (SELECT 'h' AS size UNION ALL SELECT 'd') AS s
  GROUP BY ${columns}, s.size, b, result HAVING sum(delta) != 0 OR sum(generated) != 0
  ON CONFLICT DO UPDATE SET delta = delta + excluded.delta, generated = generated + excluded.generated`;

export const FLUSH_HISTORY = [
  `INSERT INTO history_project_buckets (scope, project, size, bucket, result, delta, generated)
   ${SUMS('scope, project')}`,
  `INSERT INTO history_buckets (scope, size, bucket, result, delta, generated) ${SUMS('scope')}`,
  'DELETE FROM history_pending',
] as const;

/**
 * Adds the pending changes to the sums and empties the table (in the caller's transaction).
 * Nothing pending, nothing run: emptying even an empty table rewrites its root page, so a write
 * that changed nothing would change the file (other processes would see a change, and read again).
 */
export function flushHistory(statement: (sql: string) => Database.Statement): void {
  if (statement('SELECT 1 FROM history_pending LIMIT 1').get() === undefined) return;
  for (const sql of FLUSH_HISTORY) statement(sql).run();
}
