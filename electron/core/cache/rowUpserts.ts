/**
 * The report rows of one write, upserted by one statement. Writing a row at a time was slow
 * for a reason inside SQLite: inside a transaction, every statement that fires triggers opens
 * a savepoint, and FTS5 writes its pending index to disk at every savepoint, so the trigram
 * index the reports' triggers keep was written once per row (and merged again and again).
 * FTS5 also writes it whenever a rowid comes lower than the last one. So the rows are staged
 * in a temporary table and upserted by one statement: those already stored in rowid order,
 * the new ones after them (they get the next rowids). The index is then written once, at
 * commit.
 */
import type Database from 'better-sqlite3';

/** One row's values, named as the upsert's parameters. */
export interface RowValues {
  scope: string;
  id: string;
  idSort: number | bigint | string;
  url: string;
  urlLower: string;
  result: string | null;
  project: string | null;
  generatedAt: string | null;
  fetchedAt: string;
  seen: string | null;
  record: string;
}

/** A row to write: its values, and its rowid when the cache holds it already. */
export interface RowWrite {
  rowid: number | null;
  values: RowValues;
}

const COLUMNS =
  'scope, id, id_sort, url, url_lower, result, project, generated_at, fetched_at, last_seen_sync, record';

/** Existing rows first, by rowid; new rows after, in the order given. */
export function writeOrder(rows: readonly RowWrite[]): RowWrite[] {
  const stored = rows.filter((row) => row.rowid !== null);
  stored.sort((a, b) => (a.rowid as number) - (b.rowid as number));
  return [...stored, ...rows.filter((row) => row.rowid === null)];
}

export class RowUpserts {
  constructor(private readonly statement: (sql: string) => Database.Statement) {}

  /**
   * Upserts `rows` in the caller's transaction. A failure rolls the staged rows back with it
   * (the temporary database takes part in the transaction), so none is left behind.
   */
  write(rows: readonly RowWrite[]): void {
    // Per connection, in the temporary database (never in the cache file); made at each write,
    // since the connection may be a new one (a damaged file set aside, cacheConnection.ts).
    this.statement(
      `CREATE TEMP TABLE IF NOT EXISTS report_writes (ord INTEGER PRIMARY KEY, ${COLUMNS})`,
    ).run();
    const stage = this.statement(`
      INSERT INTO temp.report_writes (${COLUMNS})
      VALUES (@scope, @id, @idSort, @url, @urlLower, @result, @project, @generatedAt,
              @fetchedAt, @seen, @record)`);
    for (const row of writeOrder(rows)) stage.run(row.values);
    this.statement(
      `
      INSERT INTO reports (${COLUMNS})
      SELECT ${COLUMNS} FROM temp.report_writes WHERE true ORDER BY ord
      ON CONFLICT (scope, id) DO UPDATE SET
        id_sort = excluded.id_sort, url = excluded.url, url_lower = excluded.url_lower,
        result = excluded.result, project = excluded.project, generated_at = excluded.generated_at,
        fetched_at = excluded.fetched_at, record = excluded.record,
        last_seen_sync = coalesce(excluded.last_seen_sync, reports.last_seen_sync)`,
    ).run();
    this.statement('DELETE FROM temp.report_writes').run();
  }
}
