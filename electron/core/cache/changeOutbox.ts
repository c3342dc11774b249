/**
 * How a write of reports and its change-log entries stay together although they live in two
 * files (the offline copy, and local.sqlite where a damaged copy cannot take the log).
 *
 * SQLite cannot commit two WAL files atomically (with ATTACH each file's commit is atomic, not
 * the pair: https://www.sqlite.org/lang_attach.html), so the entries go first into this outbox,
 * a table of the cache, in the rows' own transaction — the rows and their entries commit
 * together or not at all. Right after that commit they are moved into the change log (one
 * transaction there, synchronous=FULL), each named by its origin (this file's id, the outbox
 * row), and only then deleted here. A kill between the two steps leaves them in the outbox; the
 * next move (at the next write, or at open) takes them again, and the change log ignores an
 * origin it has. Nothing is lost and nothing is logged twice — the crash points
 * `changes.outbox-committed` and `changes.log-committed` prove it (tests/reliability).
 */
import type Database from 'better-sqlite3';
import type { ReportChange } from '../../../shared/contract';
import { crashPoint } from '../crashPoints';
import type { LocalStore } from '../local/localStore';
import type { ChangeToRecord } from './changeLog';

/** The meta key (scope '') of this file's random id. */
export const CACHE_ID_META = 'cache_id';
/** Where an older version kept "changes since" (moved to local.sqlite's change_marks). */
const LEGACY_SINCE_META = 'changes_since';

interface OutboxRow extends Omit<ReportChange, 'fields'> {
  seq: number;
  scope: string;
  fields: string;
}

/** Entries grouped by scope, in their order, as the change log records them. */
function byScope<T extends { scope: string }>(rows: readonly T[], entry: (row: T) => ChangeToRecord) {
  const groups = new Map<string, ChangeToRecord[]>();
  for (const row of rows) {
    let group = groups.get(row.scope);
    if (!group) groups.set(row.scope, (group = []));
    group.push(entry(row));
  }
  return groups;
}

export class ChangeOutbox {
  constructor(
    private readonly statement: (sql: string) => Database.Statement,
    private readonly cacheId: () => string,
  ) {}

  /** Queues a write's entries (in the caller's transaction, with the rows they describe). */
  add(scope: string, changes: readonly ReportChange[]): void {
    const insert = this.statement(
      'INSERT INTO change_outbox (scope, id, kind, at, fields) VALUES (?, ?, ?, ?, ?)',
    );
    for (const change of changes) {
      insert.run(scope, change.id, change.kind, change.at, JSON.stringify(change.fields));
    }
  }

  /** Moves every waiting entry into the change log, then removes what moved; answers how many. */
  moveTo(local: LocalStore): number {
    const rows = this.statement(
      'SELECT seq, scope, id, kind, at, fields FROM change_outbox ORDER BY seq',
    ).all() as OutboxRow[];
    if (rows.length === 0) return 0;
    crashPoint('changes.outbox-committed');
    const source = this.cacheId();
    const groups = byScope(rows, (row) => ({
      id: row.id,
      kind: row.kind,
      at: row.at,
      fields: JSON.parse(row.fields) as ReportChange['fields'],
      origin: { source, seq: row.seq },
    }));
    local.transaction(() => {
      for (const [scope, changes] of groups) local.changes.record(scope, changes);
    });
    crashPoint('changes.log-committed');
    this.statement('DELETE FROM change_outbox WHERE seq <= ?').run(rows[rows.length - 1].seq);
    return rows.length;
  }
}

/**
 * Moves the change log and "changes since" marks an older ReportDesk kept in the cache
 * (schema versions 4 to 6) into local.sqlite, then drops them from the cache. Repeatable: a
 * kill between the two steps moves them again at the next open, and the change log ignores
 * the entries it has (their origin is the old table's seq under `legacy-<cache id>`).
 */
export function moveLegacyChangeLog(db: Database.Database, local: LocalStore, cacheId: string): number {
  let rows: (OutboxRow & { seen: number })[];
  let marks: { scope: string; value: string }[];
  try {
    // One read transaction: what is read is one version of the file (another process may be
    // moving the same rows and dropping the table right now).
    ({ rows, marks } = db.transaction(() => ({
      rows: db
        .prepare('SELECT seq, scope, id, kind, at, fields, seen FROM change_log ORDER BY seq')
        .all() as (OutboxRow & { seen: number })[],
      marks: db.prepare('SELECT scope, value FROM meta WHERE key = ?').all(LEGACY_SINCE_META) as {
        scope: string;
        value: string;
      }[],
    }))());
  } catch (error) {
    // Moved already (by this version, or by another process just now).
    if (/no such table: change_log/.test(String(error))) return 0;
    throw error;
  }
  const source = `legacy-${cacheId}`;
  local.transaction(() => {
    const groups = byScope(rows, (row) => ({
      id: row.id,
      kind: row.kind,
      at: row.at,
      fields: JSON.parse(row.fields) as ReportChange['fields'],
      seen: row.seen === 1,
      origin: { source, seq: row.seq },
    }));
    for (const [scope, changes] of groups) local.changes.record(scope, changes);
    for (const { scope, value } of marks) {
      if (local.changes.since(scope) === null) local.changes.setSince(scope, value);
    }
  });
  db.transaction(() => {
    db.exec('DROP TABLE IF EXISTS change_log');
    db.prepare('DELETE FROM meta WHERE key = ?').run(LEGACY_SINCE_META);
  }).immediate();
  return rows.length;
}
