/**
 * local.sqlite: what only this computer knows and no sync can fetch again — the change log and
 * what the user has seen of it (../cache/changeLog.ts is the door), and the notices of repairs
 * not yet acknowledged (./notices.ts). Kept apart from the offline copy so that a damaged copy
 * takes none of it (DESIGN: "what cannot be fetched again is kept where a damaged copy cannot
 * take it, with a backup").
 *
 * Durable: WAL with synchronous=FULL, so a commit is on the disk before it returns and survives
 * a power cut. Backed up once a day (`local.sqlite.backup`: VACUUM INTO a temporary file,
 * fsync, rename); a damaged file is set aside and the backup, when it passes its own check,
 * takes its place — what came after the backup is lost, and the notice says since when.
 */
import { failureCode } from '../errorCode';
import Database from 'better-sqlite3';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { RepairNotice } from '../../../shared/contract';
import { syncDirectory } from '../atomicWrite';
import { ChangeLog } from '../cache/changeLog';
import { GuardedDatabase, type SetAsideEvent } from '../guardedDatabase';
import type { Logger } from '../log';
import { ownerToken } from '../processOwner';
import { PRIVATE_FILE_MODE } from '../privateFiles';
import { isDamage, quickCheck } from '../sqliteFile';
import { storageFailure } from '../storageFailure';
import { Notices } from './notices';

export const LOCAL_FILE = 'local.sqlite';
/** A backup older than this is made again (at open, and after a write). */
const BACKUP_EVERY_MS = 24 * 3_600_000;

/** local.sqlite's schema versions (PRAGMA user_version); append, never edit. */
const LOCAL_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE change_log (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    scope      TEXT NOT NULL,
    id         TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('added', 'changed', 'removed')),
    at         TEXT NOT NULL,
    fields     TEXT NOT NULL,
    seen       INTEGER NOT NULL DEFAULT 0,
    -- Where the entry was first written (a cache's outbox: its id and row), so that a move
    -- repeated after a crash adds nothing twice.
    origin     TEXT,
    origin_seq INTEGER
  );
  CREATE UNIQUE INDEX change_log_origin ON change_log (origin, origin_seq) WHERE origin IS NOT NULL;
  CREATE INDEX change_log_by_scope ON change_log (scope, seq);
  CREATE INDEX change_log_by_report ON change_log (scope, id);
  -- Since when a scope's unseen entries count: its first full sync, then "mark all as seen".
  CREATE TABLE change_marks (scope TEXT PRIMARY KEY, since TEXT NOT NULL);
  -- Repairs ReportDesk made by itself, shown until the user acknowledges them.
  CREATE TABLE notices (
    id      TEXT PRIMARY KEY,
    kind    TEXT NOT NULL,
    at      TEXT NOT NULL,
    details TEXT NOT NULL
  );
  `,
];

function migrateLocal(db: Database.Database, file: string): void {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > LOCAL_MIGRATIONS.length) {
      throw new Error(`${file} was written by a newer version of ReportDesk.`);
    }
    for (let next = version; next < LOCAL_MIGRATIONS.length; next++) {
      db.exec(LOCAL_MIGRATIONS[next]);
      db.pragma(`user_version = ${next + 1}`);
    }
  }).immediate();
}

export interface LocalStoreOptions {
  /** The last run on the folder did not end cleanly: check the file first. */
  check?: boolean;
  logger: Logger;
  now?: () => Date;
}

export class LocalStore {
  readonly file: string;
  private readonly guarded: GuardedDatabase;
  private readonly now: () => Date;
  private readonly logger: Logger;
  private lastBackupLook = 0;
  /** Files set aside and not yet told as notices (the guard reports them while it opens). */
  private readonly repairs: SetAsideEvent[] = [];
  /** The notices of repairs of this file made by this process. */
  readonly repairsMadeHere: RepairNotice[] = [];
  /** The change log and its seen marks (the one door: ../cache/changeLog.ts). */
  readonly changes: ChangeLog;
  /** Repairs made and not yet acknowledged. */
  readonly notices: Notices;

  private constructor(file: string, options: LocalStoreOptions) {
    this.file = file;
    this.now = options.now ?? (() => new Date());
    this.logger = options.logger.child('local');
    this.guarded = new GuardedDatabase({
      file,
      label: 'The local file (change log, seen marks)',
      migrate: migrateLocal,
      synchronous: 'FULL',
      check: options.check ?? false,
      countLost: (db) => (db.prepare('SELECT count(*) AS n FROM change_log').get() as { n: number }).n,
      restore: (target) => this.restoreBackup(target),
      onSetAside: (event) => this.repairs.push(event),
      // A repair while in use: told once the restored (or new) file is open.
      onReopen: () => this.tellRepairs(),
      logger: this.logger,
    });
    const statement = (sql: string) => this.statement(sql);
    this.changes = new ChangeLog(statement);
    this.notices = new Notices(statement, this.now);
    this.tellRepairs();
    this.backupIfDue();
  }

  static open(file: string, options: LocalStoreOptions): LocalStore {
    return new LocalStore(file, options);
  }

  /** Why writes are refused here (a read-only folder), or null. */
  get readOnly(): { folder: string; code: string } | null {
    return this.guarded.readOnly;
  }

  /**
   * Runs `fn` in one write transaction (IMMEDIATE: another process writing makes this wait).
   * Refused in a read-only folder, in the folder's own words; a full disk is told as such.
   */
  transaction<T>(fn: () => T): T {
    this.guarded.assertWritable();
    const outermost = !this.guarded.db.inTransaction;
    if (outermost) this.guarded.follow(true);
    try {
      const result = this.guarded.db.transaction(fn).immediate();
      if (outermost) this.backupIfDue();
      return result;
    } catch (error) {
      // A damaged file is restored (or started afresh) for the next write; this one is lost.
      if (outermost && isDamage(error)) this.guarded.recover(error);
      throw storageFailure(error, { folder: dirname(this.file), place: 'data_folder' }) ?? error;
    }
  }

  /** Runs a read; a damaged file is repaired and the read answered from the repaired one. */
  read<T>(fn: () => T): T {
    return this.guarded.read(fn);
  }

  close(): void {
    this.guarded.close();
  }

  private statement(sql: string): Database.Statement {
    return this.guarded.statement(sql);
  }

  /** Records a notice for each file set aside (the new file holds it). */
  private tellRepairs(): void {
    for (const done of this.repairs.splice(0)) {
      const notice = this.transaction(() =>
        this.notices.add({
          kind: 'local_restored',
          details: { asideAs: done.asideAs, entriesLost: done.lost, backupSavedAt: done.restoredFrom },
        }),
      );
      this.repairsMadeHere.push(notice);
    }
  }

  /** Copies the backup over `target` when it passes its check; answers its time, or null. */
  private restoreBackup(target: string): string | null {
    const backup = `${this.file}.backup`;
    try {
      const savedAt = statSync(backup).mtime.toISOString();
      // Read-only, so a missing file is refused too (never created).
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: { readonly: true } → {} or readonly → false (their only directions) open it read-write and creating: the stat above just found it (nothing removes a backup; a new one is renamed over it), and a quick check of a rollback-journal file (VACUUM INTO makes one) writes nothing, leaves no -wal or journal, changes no time; a file that cannot be written is opened read-only by SQLite either way.
      const db = new Database(backup, { readonly: true });
      try {
        if (quickCheck(db) !== 'ok') return null;
      } finally {
        db.close();
      }
      copyFileSync(backup, target);
      chmodSync(target, PRIVATE_FILE_MODE);
      return savedAt;
    } catch {
      // No backup, or one that cannot be read: a new file starts.
    }
    return null;
  }

  /** Makes the daily backup when it is due; a failure is logged (the next write tries again). */
  private backupIfDue(): void {
    // Looked at most once a minute; the backup's age is its file's time, on the store's clock.
    const now = this.now().getTime();
    if (this.readOnly || now - this.lastBackupLook < 60_000) return;
    this.lastBackupLook = now;
    const backup = `${this.file}.backup`;
    try {
      if (now - statSync(backup).mtimeMs < BACKUP_EVERY_MS) return;
    } catch {
      // No backup yet.
    }
    const temporary = join(
      dirname(backup),
      `.${basename(backup)}.${ownerToken()}.${randomBytes(6).toString('hex')}.tmp`,
    );
    try {
      this.guarded.db.prepare('VACUUM INTO ?').run(temporary);
      chmodSync(temporary, PRIVATE_FILE_MODE);
      // Durable before its rename (tests/integration/localStoreSync.test.ts records the calls).
      const fd = openSync(temporary, 'r+');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, backup);
      syncDirectory(dirname(backup));
    } catch (error) {
      rmSync(temporary, { force: true });
      this.logger.warn('The backup of the local file could not be made; the next write tries again.', {
        code: failureCode(error),
      });
    }
  }
}
