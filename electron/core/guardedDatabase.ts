/**
 * One of ReportDesk's SQLite files, kept usable whatever happens to it (the offline copy and
 * local.sqlite each hold one):
 *
 * - damaged at open (SQLITE_CORRUPT, SQLITE_NOTADB, or a quick check that fails after a run
 *   that did not end cleanly) or later (`recover`, called by the owner when any statement says
 *   so): the file and its -wal/-shm are set aside (../sqliteFile.ts) and a new one is opened;
 *   `onSetAside` hears what was set aside, and how many rows `countLost` could still read;
 * - replaced by another process that set it aside first (`follow`: the path names another
 *   inode now): opened again, nothing set aside twice — both steps run under `repair.lock`;
 * - in a folder this process cannot write: a private temporary copy is opened, and `readOnly`
 *   says why, so that the owner refuses writes in a sentence instead of failing in SQLite.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openDatabase, type OpenOptions } from './cache/cacheFile';
import { errorCode } from './errorCode';
import { FileLock } from './fileLock';
import type { Logger } from './log';
import { isDamage, quickCheck, setAside, temporaryCopy, type SetAside } from './sqliteFile';
import { readOnlyCode, storageError } from './storageFailure';
import { AppFailure, appError } from '../../shared/errors';

/** A damaged file set aside: where, why, and how many rows it still held (null: unreadable). */
export interface SetAsideEvent extends SetAside {
  file: string;
  lost: number | null;
  during: 'open' | 'use';
  /** When the backup that took the damaged file's place was made; null when a new, empty file did. */
  restoredFrom: string | null;
}

export interface GuardOptions extends OpenOptions {
  file: string;
  /** The file in the log's words: "The cache file", "The local file". */
  label: string;
  /** The last run on the folder did not end cleanly: check the file before trusting it. */
  check: boolean;
  /** Rows a damaged file still holds, read before it is set aside (throws when it cannot). */
  countLost: (db: Database.Database) => number;
  /** Puts a backup in place of the file set aside (answers the backup's time), or null: start empty. */
  restore?: (file: string) => string | null;
  onSetAside: (event: SetAsideEvent) => void;
  /** Another file took this one's place (after a repair, or following another process's). */
  onReopen?: () => void;
  logger: Logger;
}

/** The lock taken while a damaged file is set aside, so that two processes never both do it. */
const REPAIR_LOCK = 'repair.lock';
const REPAIR_WAIT_MS = 10_000;
/** How often reads look whether another process replaced the file (writes look every time). */
const FOLLOW_EVERY_MS = 1_000;

function inodeOf(file: string): number | null {
  try {
    return statSync(file).ino;
  } catch {
    return null;
  }
}

/** Throws a damage error (SQLITE_CORRUPT, with quick_check's findings) unless `db` checks ok. */
function assertIntact(db: Database.Database): void {
  const verdict = quickCheck(db);
  if (verdict !== 'ok') throw Object.assign(new Error(verdict), { code: 'SQLITE_CORRUPT', verdict });
}

export class GuardedDatabase {
  private current: Database.Database;
  /** Statements prepared on the current file (none survives a reopen). */
  private readonly statements = new Map<string, Database.Statement>();
  private ino: number | null = null;
  private lastLook = 0;
  private discardCopy: (() => void) | null = null;
  private readonly repairLock: FileLock;
  /** Why the folder cannot be written (EROFS, EACCES…); null when it can. */
  readonly readOnly: { folder: string; code: string } | null;
  /** Bumped each time another file is opened in place of the current one. */
  generation = 0;

  constructor(private readonly options: GuardOptions) {
    const folder = dirname(options.file);
    this.repairLock = new FileLock(
      join(folder, REPAIR_LOCK),
      REPAIR_WAIT_MS,
      (error) =>
        new AppFailure(appError('storage.set_aside_failed', { file: options.file, code: errorCode(error) })),
    );
    const code = readOnlyCode(folder);
    this.readOnly = code === null ? null : { folder, code };
    this.current = code === null ? this.openChecked() : this.openCopy();
  }

  get db(): Database.Database {
    return this.current;
  }

  /** The statement for `sql`, prepared once per file. */
  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.current.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A read at the outermost level; on a damaged file, once more on the new one. */
  read<T>(work: () => T): T {
    if (this.current.inTransaction) return work();
    this.follow(false);
    try {
      return work();
    } catch (error) {
      // Anything but damage is thrown back by recover as it is.
      this.recover(error);
      return work();
    }
  }

  /**
   * Throws a damage error (as a statement meeting damage would) when PRAGMA quick_check finds
   * anything wrong: damage in pages no statement happened to read is found too.
   */
  assertIntact(): void {
    assertIntact(this.current);
  }

  /** Throws the folder's `read_only` failure when writes are refused here. */
  assertWritable(): void {
    const readOnly = this.readOnly;
    if (readOnly) {
      throw new AppFailure(
        storageError('read_only', readOnly.code, { folder: readOnly.folder, place: 'data_folder' }),
      );
    }
  }

  /**
   * Opens the file again when another process has set it aside (its path names another inode,
   * or none): before a write every time, before a read at most once a second. Answers whether
   * it did.
   */
  follow(forWrite: boolean, now = Date.now()): boolean {
    if (this.readOnly || (!forWrite && now - this.lastLook < FOLLOW_EVERY_MS)) return false;
    this.lastLook = now;
    if (inodeOf(this.options.file) === this.ino) return false;
    this.reopen(() => undefined);
    return true;
  }

  /**
   * A statement said the file is damaged (`error`): set it aside (unless another process did
   * already) and open a new one. Rethrows anything that is not damage.
   */
  recover(error: unknown): void {
    // A read-only folder's copy cannot be repaired in place: the error stands.
    if (!isDamage(error) || this.readOnly) throw error;
    const damagedIno = this.ino;
    let lost: number | null = null;
    try {
      lost = this.options.countLost(this.current);
    } catch {
      // Too damaged to count: the notice says "unknown".
    }
    this.reopen(() => this.setAsideIf(damagedIno, errorCode(error), lost, 'use'));
  }

  close(): void {
    // Closing a closed connection does nothing (better-sqlite3).
    this.current.close();
    this.repairLock.close();
    this.discardCopy?.();
    this.discardCopy = null;
  }

  private reopen(repair: () => void): void {
    this.statements.clear();
    // Closed only once the lock is held: a lock that cannot be taken leaves this file in use.
    this.repairLock.run(() => {
      this.current.close();
      repair();
      this.current = this.openNow();
    });
    this.generation += 1;
    this.options.onReopen?.();
  }

  /** Opens the file; damaged (or failing its check after an unclean end), sets it aside first. */
  private openChecked(): Database.Database {
    const { file, check } = this.options;
    const before = inodeOf(file);
    let db: Database.Database | null = null;
    try {
      db = this.openNow();
      if (check) assertIntact(db);
      return db;
    } catch (error) {
      if (!isDamage(error)) {
        db?.close();
        throw error;
      }
      let lost: number | null = null;
      if (db) {
        try {
          lost = this.options.countLost(db);
        } catch {
          // Unreadable: unknown.
        }
        db.close();
      }
      const reason = (error as { verdict?: string }).verdict?.split('\n')[0] ?? errorCode(error);
      this.repairLock.run(() => {
        this.setAsideIf(before, reason, lost, 'open');
        db = this.openNow();
      });
      return db!;
    }
  }

  /** Sets the file aside when its path still names the damaged inode (or it had none known). */
  private setAsideIf(
    damagedIno: number | null,
    code: string,
    lost: number | null,
    during: 'open' | 'use',
  ): void {
    const { file, logger } = this.options;
    const now = inodeOf(file);
    if (now === null || (damagedIno !== null && now !== damagedIno)) return;
    const aside = setAside(file, code);
    const restoredFrom = this.options.restore?.(file) ?? null;
    logger.warn(
      `${this.options.label} is damaged; keeping it aside and ${restoredFrom === null ? 'starting a new one' : 'restoring its backup'}.`,
      { ...aside, lost, restoredFrom },
    );
    this.options.onSetAside({ ...aside, file, lost, during, restoredFrom });
  }

  private openNow(): Database.Database {
    const db = openDatabase(this.options.file, this.options);
    this.ino = inodeOf(this.options.file);
    return db;
  }

  /** The read-only folder's file, read from a private copy (or empty when there is none to copy). */
  private openCopy(): Database.Database {
    const copy = temporaryCopy(this.options.file);
    this.discardCopy = copy?.discard ?? null;
    if (copy) {
      try {
        return openDatabase(copy.file, this.options);
      } catch (error) {
        this.options.logger.warn('The read-only copy could not be opened; starting empty.', {
          code: errorCode(error),
        });
      }
    }
    // Stryker disable next-line StringLiteral: ':memory:' → '' (its only direction) opens SQLite's anonymous temporary database, as empty, as private and as gone at close; both report `memory` and an empty file in database_list.
    const db = new Database(':memory:');
    this.options.migrate(db, this.options.file);
    return db;
  }
}
