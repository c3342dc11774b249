/**
 * profiles.json as the store keeps it (ProfileStore): the state last read or written, the
 * signature of that version of the file, the text the next change keeps as the backup, and
 * what to do when the file cannot be used (issue 30) — restore the backup, or block every read
 * and write until the user agrees to start afresh. A file of a newer ReportDesk blocks too.
 */
import { mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { unusableProfilesWords, type UnusableProfilesFile } from '../../../shared/errorCodes';
import { AppFailure, appError } from '../../../shared/errors';
import { asideName } from '../asideName';
import { writeFileAtomic } from '../atomicWrite';
import { crashPoint } from '../crashPoints';
import { errorCode, failureCode } from '../errorCode';
import type { Logger } from '../log';
import { storageFailure } from '../storageFailure';
import type { ProfilesFile } from './profileRecord';
import {
  BACKUP_SUFFIX,
  copyAside,
  EMPTY_PROFILES,
  pruneDamagedCopies,
  readBackup,
  readProfilesFile,
  signatureOf,
  type FileRead,
} from './profilesFile';
import type { ProfilesLock } from './profilesLock';

/** A profiles file restored from its backup (told once, by the process that restored it). */
export interface ProfilesRestored {
  file: string;
  asideAs: string;
  backupSavedAt: string;
}

/** A damaged profiles file without a backup: where its copy is kept (the file itself when none could be made). */
export interface ProfilesDamage {
  file: string;
  asideAs: string;
  why: UnusableProfilesFile;
}

export class ProfilesOnDisk {
  state: ProfilesFile = EMPTY_PROFILES;
  /** The version of the file `state` was read from (or written as); null: no file seen. */
  private seen: string | null = null;
  /** The file's text as last read or written: the backup the next change keeps. */
  private goodText: string | null = null;
  /** Set while the file cannot be used (damaged without a backup, unreadable, newer): writing would destroy it. */
  private trouble: { failure: AppFailure; damage: ProfilesDamage | null } | null = null;

  constructor(
    private readonly file: string,
    private readonly lock: ProfilesLock,
    private readonly logger: Logger,
    private readonly onRestored: (restored: ProfilesRestored) => void,
  ) {
    this.load();
  }

  /** Re-reads the file when it is another version than the one held; answers whether the state changed. */
  refresh(): boolean {
    let signature: string | null;
    try {
      signature = signatureOf(statSync(this.file));
    } catch (error) {
      // Gone: another process (or the user) removed it. Anything else: keep what we have.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
      signature = null;
    }
    if (signature === this.seen) return false;
    const before = JSON.stringify(this.state);
    this.load();
    return JSON.stringify(this.state) !== before;
  }

  /** Throws the reason the file cannot be used, if there is one. */
  failIfUnusable(): void {
    if (this.trouble) throw this.trouble.failure;
  }

  /** The damaged file waiting for the user's agreement, or null. */
  damage(): ProfilesDamage | null {
    return this.trouble?.damage ?? null;
  }

  /**
   * The user agrees to start a new, empty list over a damaged file that had no backup (call it
   * under the lock, after a refresh): the damaged file goes, its copy stays (one is made now
   * when none could be).
   */
  startAfresh(): void {
    const damage = this.trouble?.damage;
    if (!damage) {
      throw new AppFailure(appError('profiles.not_damaged'));
    }
    try {
      // No copy could be made (unreadable, a folder): the file itself is moved aside.
      if (damage.asideAs === this.file) renameSync(this.file, asideName(this.file));
      // unlinkSync, not rmSync: Node 24's rmSync throws errors without their code (EROFS…).
      else unlinkSync(this.file);
    } catch (error) {
      throw this.saveFailure(error);
    }
    this.trouble = null;
    this.goodText = null;
    this.save(EMPTY_PROFILES);
    this.logger.warn('A new, empty profile list was started over the damaged file, as the user agreed.', {
      asideAs: damage.asideAs,
    });
  }

  load(): void {
    const read = readProfilesFile(this.file);
    if (read.kind === 'damaged') this.repair(read);
    else this.apply(read);
  }

  /** Takes what a read found as the store's state (a good file, or none). */
  private apply(read: Exclude<FileRead, { kind: 'damaged' }>): void {
    this.trouble = null;
    if (read.kind === 'missing') {
      this.state = EMPTY_PROFILES;
      this.seen = null;
      this.goodText = null;
    } else if (read.kind === 'newer') {
      this.state = EMPTY_PROFILES;
      this.seen = read.signature;
      this.goodText = null;
      this.trouble = {
        damage: null,
        failure: new AppFailure(
          appError('profiles.newer_version', { file: this.file, version: read.version }),
        ),
      };
    } else {
      this.applyGood(read);
    }
  }

  private applyGood(read: { state: ProfilesFile; text: string; signature: string }): void {
    this.trouble = null;
    this.state = read.state;
    this.seen = read.signature;
    this.goodText = read.text;
  }

  /**
   * A damaged file, under the lock (another process may be repairing it too): its backup is
   * restored, the damaged file kept aside; without a backup, a copy is kept aside and the
   * store is blocked. A file that cannot even be moved (or a lock that cannot be taken) blocks
   * it too: nothing is ever written over what cannot be kept.
   */
  private repair(read: Extract<FileRead, { kind: 'damaged' }>): void {
    try {
      this.lock.run(() => {
        const again = readProfilesFile(this.file);
        if (again.kind !== 'damaged') return this.apply(again);
        const backup = readBackup(this.file);
        if (!backup) return this.block(again, copyAside(this.file));
        const asideAs = asideName(this.file);
        renameSync(this.file, asideAs);
        const stats = writeFileAtomic(this.file, backup.text);
        this.applyGood({ state: backup.state, text: backup.text, signature: signatureOf(stats) });
        pruneDamagedCopies(this.file);
        this.logger.warn(
          `The profiles file could not be used because ${unusableProfilesWords(again.why)}; its backup of ${backup.savedAt} was restored.`,
          { asideAs },
        );
        this.onRestored({ file: this.file, asideAs, backupSavedAt: backup.savedAt });
      });
    } catch (error) {
      // A lock that cannot be taken says why in its details (EROFS, EACCES…).
      const code = failureCode(error);
      this.logger.error('The damaged profiles file could not be repaired.', { code });
      this.block(read, this.file, code);
    }
  }

  /** Nothing is read from nor written over the damaged file until the user agrees (startAfresh). */
  private block(read: Extract<FileRead, { kind: 'damaged' }>, asideAs: string, cannotRepair?: string): void {
    this.state = EMPTY_PROFILES;
    this.goodText = null;
    // Remembered: a file that cannot be used is not tried again (nor logged) until it changes.
    this.seen = read.signature;
    const damage = { file: this.file, asideAs, why: read.why };
    const error = appError(
      'profiles.damaged',
      {
        file: this.file,
        asideAs,
        kept: asideAs !== this.file ? 'copy' : cannotRepair ? 'unmovable' : 'as_is',
        moveCode: cannotRepair ?? '',
        reason: read.why.reason,
        readCode: read.why.reason === 'unreadable' ? read.why.readCode : '',
      },
      { reason: 'profiles_damaged', details: { file: this.file, asideAs } },
    );
    this.logger.error(error.message);
    this.trouble = { damage, failure: new AppFailure(error) };
  }

  save(next: ProfilesFile): void {
    let signature: string;
    const text = JSON.stringify(compact(next), null, 2) + '\n';
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      // The previous good file is the backup a damaged file is restored from.
      if (this.goodText !== null) {
        writeFileAtomic(this.file + BACKUP_SUFFIX, this.goodText);
        crashPoint('profiles.backup-written');
      }
      signature = signatureOf(writeFileAtomic(this.file, text));
    } catch (error) {
      throw this.saveFailure(error);
    }
    this.state = compact(next);
    this.seen = signature;
    this.goodText = text;
  }

  saveFailure(error: unknown): AppFailure {
    this.logger.error('Saving the profiles failed.', { code: errorCode(error) });
    return (
      storageFailure(error, { folder: dirname(this.file), place: 'data_folder' }) ??
      new AppFailure(appError('profile.save_failed', { file: this.file, code: errorCode(error) }))
    );
  }
}

/** The file as written: without an empty list of pending changes (as older versions wrote it). */
function compact(state: ProfilesFile): ProfilesFile {
  if (state.pending === undefined || state.pending.length > 0) return state;
  const { pending: _none, ...rest } = state;
  return rest;
}
