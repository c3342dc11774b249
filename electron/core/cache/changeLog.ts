/**
 * The change log of a scope's offline copy (schema version 4): what refreshes, syncs and reads
 * found different on the service — a report added, changed in a watched field (reportDiff.ts),
 * or gone — newest last. Written by ReportCache in the same transaction as the rows it
 * describes, so a crash never keeps one without the other. Kept for CHANGE_LOG_DAYS and at most
 * CHANGE_LOG_MAX_ENTRIES per scope, the oldest dropped first.
 */
import type Database from 'better-sqlite3';
import type { ChangeFields, ChangeKind, ReportChange } from '../../../shared/contract';

/** Entries older than this many days are dropped… */
export const CHANGE_LOG_DAYS = 30;
/** …and beyond this many per scope, the oldest. */
export const CHANGE_LOG_MAX_ENTRIES = 10_000;

const DAY_MS = 86_400_000;

/** An entry as stored: the change, its place in the log, and whether the user has seen it. */
export interface LoggedChange extends ReportChange {
  seq: number;
  seen: boolean;
}

interface ChangeRow {
  seq: number;
  id: string;
  kind: ChangeKind;
  at: string;
  fields: string;
  seen: number;
}

function fromRow(row: ChangeRow): LoggedChange {
  return {
    seq: row.seq,
    id: row.id,
    kind: row.kind,
    at: row.at,
    fields: JSON.parse(row.fields) as ChangeFields,
    seen: row.seen === 1,
  };
}

export class ChangeLog {
  constructor(private readonly statement: (sql: string) => Database.Statement) {}

  /** Appends entries (in the caller's transaction), then drops what is past the retention. */
  record(scope: string, changes: readonly ReportChange[]): void {
    if (changes.length === 0) return;
    const insert = this.statement(
      'INSERT INTO change_log (scope, id, kind, at, fields) VALUES (?, ?, ?, ?, ?)',
    );
    let newest = changes[0].at;
    for (const change of changes) {
      insert.run(scope, change.id, change.kind, change.at, JSON.stringify(change.fields));
      // Stryker disable next-line EqualityOperator: a tie is the same newest time.
      if (change.at > newest) newest = change.at;
    }
    this.trim(scope, new Date(Date.parse(newest) - CHANGE_LOG_DAYS * DAY_MS).toISOString());
  }

  /** Drops the scope's entries older than `before` and all but the newest CHANGE_LOG_MAX_ENTRIES. */
  trim(scope: string, before: string): void {
    this.statement('DELETE FROM change_log WHERE scope = ? AND at < ?').run(scope, before);
    const cut = this.statement(
      'SELECT seq FROM change_log WHERE scope = ? ORDER BY seq DESC LIMIT 1 OFFSET ?',
    ).get(scope, CHANGE_LOG_MAX_ENTRIES) as { seq: number } | undefined;
    if (cut) this.statement('DELETE FROM change_log WHERE scope = ? AND seq <= ?').run(scope, cut.seq);
  }

  /** The scope's entries, newest first; `since` keeps those recorded after it (an ISO time). */
  list(scope: string, options: { since?: string; unseenOnly?: boolean } = {}): LoggedChange[] {
    const rows = this.statement(
      `SELECT seq, id, kind, at, fields, seen FROM change_log
       WHERE scope = @scope AND (@since IS NULL OR at > @since) AND (@unseen = 0 OR seen = 0)
       ORDER BY seq DESC`,
    ).all({ scope, since: options.since ?? null, unseen: options.unseenOnly ? 1 : 0 }) as ChangeRow[];
    return rows.map(fromRow);
  }

  /**
   * The entries of the reports `ids`, and of every report an entry shows with `url` (one of the
   * URL's since removed, or moved to another URL), newest first: what happened to one URL's
   * reports (issue 27's history).
   */
  forReports(scope: string, ids: readonly string[], url: string): LoggedChange[] {
    const rows = this.statement(
      `SELECT seq, id, kind, at, fields, seen FROM change_log
       WHERE scope = @scope AND id IN (
         SELECT value FROM json_each(@ids)
         UNION
         SELECT id FROM change_log WHERE scope = @scope AND instr(fields, @quoted) > 0
           AND @url IN (json_extract(fields, '$.url.before'), json_extract(fields, '$.url.after')))
       ORDER BY seq DESC`,
    ).all({ scope, ids: JSON.stringify(ids), url, quoted: JSON.stringify(url) }) as ChangeRow[];
    return rows.map(fromRow);
  }

  /** Of `ids`, those with an unseen "added" entry: the rows the list marks as new. */
  newAmong(scope: string, ids: readonly string[]): string[] {
    if (ids.length === 0) return [];
    const rows = this.statement(
      `SELECT DISTINCT id FROM change_log
       WHERE scope = ? AND kind = 'added' AND seen = 0 AND id IN (SELECT value FROM json_each(?))`,
    ).all(scope, JSON.stringify(ids)) as { id: string }[];
    const found = new Set(rows.map((row) => row.id));
    return ids.filter((id) => found.has(id));
  }

  /** Marks the entries of `ids` (a report opened), or every entry, as seen; answers how many. */
  markSeen(scope: string, ids?: readonly string[]): number {
    if (ids === undefined) {
      return this.statement('UPDATE change_log SET seen = 1 WHERE scope = ? AND seen = 0').run(scope).changes;
    }
    return this.statement(
      `UPDATE change_log SET seen = 1
       WHERE scope = ? AND seen = 0 AND id IN (SELECT value FROM json_each(?))`,
    ).run(scope, JSON.stringify(ids)).changes;
  }
}
