/**
 * The notices of repairs ReportDesk made by itself (a damaged offline copy set aside, profiles
 * restored from their backup, local.sqlite restored), kept in local.sqlite until the user
 * acknowledges them: the app shows each as a banner whichever process made the repair (a CLI
 * command's repair shows in the app too), the CLI says each once, in the run that made it.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { RepairNotice } from '../../../shared/contract';

/** Notices kept at most (the oldest go first): a window shows a few banners, not a history. */
const MAX_NOTICES = 20;

/** A notice as it is made: its id and time are given when it is recorded. */
export type NewNotice = {
  [K in RepairNotice['kind']]: Omit<Extract<RepairNotice, { kind: K }>, 'id' | 'at'>;
}[RepairNotice['kind']];

export class Notices {
  constructor(
    private readonly statement: (sql: string) => Database.Statement,
    private readonly now: () => Date,
  ) {}

  /** Records a notice; answers it as stored. */
  add(notice: NewNotice): RepairNotice {
    const stored = { ...notice, id: randomUUID(), at: this.now().toISOString() } as RepairNotice;
    this.statement('INSERT INTO notices (id, kind, at, details) VALUES (?, ?, ?, ?)').run(
      stored.id,
      stored.kind,
      stored.at,
      JSON.stringify(stored.details),
    );
    this.statement(
      'DELETE FROM notices WHERE id NOT IN (SELECT id FROM notices ORDER BY at DESC, rowid DESC LIMIT ?)',
    ).run(MAX_NOTICES);
    return stored;
  }

  /** The notices not yet acknowledged, oldest first. */
  list(): RepairNotice[] {
    const rows = this.statement('SELECT id, kind, at, details FROM notices ORDER BY at, rowid').all() as {
      id: string;
      kind: RepairNotice['kind'];
      at: string;
      details: string;
    }[];
    return rows.map((row) => ({ ...row, details: JSON.parse(row.details) }) as RepairNotice);
  }

  /** Acknowledges one notice; answers whether it was there. */
  dismiss(id: string): boolean {
    return this.statement('DELETE FROM notices WHERE id = ?').run(id).changes === 1;
  }
}
