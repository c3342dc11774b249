/**
 * The change log of each scope's offline copy: what refreshes, syncs and reads found different
 * on the service — a report added, changed in a watched field (reportDiff.ts), or gone — newest
 * last, and what the user has seen of it. This class is the one door to it, wherever it lives:
 * since issue 30 in local.sqlite (../local/localStore.ts), apart from the offline copy, so a
 * damaged copy takes none of it. Kept for CHANGE_LOG_DAYS and at most CHANGE_LOG_MAX_ENTRIES
 * per scope, the oldest dropped first.
 *
 * How a write of reports and its entries stay together across the two files: the cache writes
 * the entries into its own outbox in the rows' transaction (changeOutbox.ts), and they are
 * moved here right after it commits, each with its origin (the cache's id, the outbox's seq),
 * so a move repeated after a crash adds nothing twice (`record` ignores an origin it has).
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

/** An entry to record; `origin` names where it was first written (a cache's outbox row). */
export interface ChangeToRecord extends ReportChange {
  origin?: { source: string; seq: number };
  /** Moved from an older file with its seen mark. */
  seen?: boolean;
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

  /**
   * Appends entries (in the caller's transaction), then drops what is past the retention:
   * entries CHANGE_LOG_DAYS older than the batch's newest (those of the batch are not written),
   * and all but the newest CHANGE_LOG_MAX_ENTRIES. An entry whose origin is recorded already is
   * skipped.
   */
  record(scope: string, changes: readonly ChangeToRecord[]): void {
    if (changes.length === 0) return;
    const newest = changes.reduce((max, change) => Math.max(max, Date.parse(change.at)), -Infinity);
    const before = new Date(newest - CHANGE_LOG_DAYS * DAY_MS).toISOString();
    const insert = this.statement(
      `INSERT OR IGNORE INTO change_log (scope, id, kind, at, fields, seen, origin, origin_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const change of changes) {
      if (change.at >= before)
        insert.run(
          scope,
          change.id,
          change.kind,
          change.at,
          JSON.stringify(change.fields),
          change.seen ? 1 : 0,
          change.origin?.source ?? null,
          change.origin?.seq ?? null,
        );
    }
    this.trim(scope, before);
  }

  /**
   * Drops the scope's entries older than `before` and all but the newest CHANGE_LOG_MAX_ENTRIES.
   * Entries are logged with the time of their write, so the log is in time order (but for the
   * moments two writers overlap): the age cut walks it from the oldest entry and stops at the
   * first one within the retention, instead of reading every entry.
   */
  trim(scope: string, before: string): void {
    this.statement(
      `DELETE FROM change_log WHERE scope = @scope AND seq < ifnull(
         (SELECT seq FROM change_log WHERE scope = @scope AND at >= @before ORDER BY seq LIMIT 1),
         9223372036854775807)`,
    ).run({ scope, before });
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

  /** Since when the scope's unseen entries count ("Changes since …"): its first full sync, then the last "mark all as seen". */
  since(scope: string): string | null {
    const row = this.statement('SELECT since FROM change_marks WHERE scope = ?').get(scope) as
      { since: string } | undefined;
    return row?.since ?? null;
  }

  setSince(scope: string, at: string): void {
    this.statement(
      'INSERT INTO change_marks (scope, since) VALUES (?, ?) ON CONFLICT (scope) DO UPDATE SET since = excluded.since',
    ).run(scope, at);
  }

  /** Forgets a scope's log and marks (a profile removed, another service or account), or every scope's. */
  clear(scope?: string): void {
    for (const table of ['change_log', 'change_marks']) {
      if (scope === undefined) this.statement(`DELETE FROM ${table}`).run();
      else this.statement(`DELETE FROM ${table} WHERE scope = ?`).run(scope);
    }
  }

  /** Every scope with entries or marks. */
  scopes(): string[] {
    const rows = this.statement(
      'SELECT scope FROM change_log UNION SELECT scope FROM change_marks',
    ).all() as {
      scope: string;
    }[];
    return rows.map((row) => row.scope);
  }
}
