/**
 * Profiles: a name, a base URL and options per Report Service account, in one JSON file
 * (`{ "version": 1, "activeId": …, "profiles": […] }`). No secret is ever written here: keys
 * live in the keychain (see ../keys). Writes are atomic (temp file, fsync, rename, fsync of the
 * folder), so a crash leaves either the old file or the new one.
 *
 * Several processes (the app and CLI runs) share the file. Every change is a read-modify-write
 * under a cross-process lock (./profilesLock.ts: an IMMEDIATE transaction on a small SQLite
 * file beside it, profiles.lock). The OS releases that lock when its holder exits or is
 * killed, so a crashed process never leaves a stale lock behind (no pid files). Reads
 * re-read the file whenever it was replaced (a stat per call), and `watch()` reports changes
 * made by other processes to `onExternalChange` listeners.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  watch,
  type FSWatcher,
  type Stats,
} from 'node:fs';
import { basename, dirname } from 'node:path';
import { unusableProfilesWords, type UnusableProfilesFile } from '../../../shared/errorCodes';
import { AppFailure, appError, invalidField, type AppError } from '../../../shared/errors';
import { writeFileAtomic } from '../atomicWrite';
import { errorCode } from '../errorCode';
import { silentLogger, type Logger } from '../log';
import {
  ProfilesFileSchema,
  type OfflineProfileOptions,
  type ProfilesFile,
  type StoredProfile,
} from './profileRecord';
import { ProfilesLock } from './profilesLock';

export { PROFILE_LOCK_WAIT_MS, profilesLockFile } from './profilesLock';

export type { StoredProfile } from './profileRecord';

/** Identifies one version of the file: a rename always brings a new inode. */
function signatureOf(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

export class ProfileStore {
  private readonly file: string;
  private readonly lock: ProfilesLock;
  private readonly logger: Logger;
  private state: ProfilesFile = { version: 1, activeId: null, profiles: [] };
  /** The version of the file `state` was read from (or written as); null: no file seen. */
  private seen: string | null = null;
  /** Set when the file could be neither read nor moved aside: writing would destroy it. */
  private unreadableFileProblem: AppError | null = null;
  private watcher: FSWatcher | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(file: string, options: { logger?: Logger; lockWaitMs?: number } = {}) {
    this.file = file;
    this.logger = (options.logger ?? silentLogger).child('profiles');
    this.lock = new ProfilesLock(file, this.logger, options.lockWaitMs);
    this.load();
  }

  /** In creation order. */
  list(): StoredProfile[] {
    this.refresh();
    return this.state.profiles.map((profile) => ({ ...profile }));
  }

  get(id: string): StoredProfile | undefined {
    this.refresh();
    const found = this.state.profiles.find((profile) => profile.id === id);
    return found && { ...found };
  }

  /** Like get, for an id the user acted on: a profile removed meanwhile is a `not_found`. */
  requireProfile(id: string): StoredProfile {
    const found = this.get(id);
    if (!found) throw new AppFailure(appError('profile.not_found'));
    return found;
  }

  findByName(name: string): StoredProfile | undefined {
    this.refresh();
    const wanted = nameKey(name);
    const found = this.state.profiles.find((profile) => nameKey(profile.name) === wanted);
    return found && { ...found };
  }

  activeId(): string | null {
    this.refresh();
    return this.state.activeId;
  }

  /** The active profile, with one look at the file (each request asks): undefined when none is. */
  activeProfile(): StoredProfile | undefined {
    this.refresh();
    const found = this.state.profiles.find((profile) => profile.id === this.state.activeId);
    return found && { ...found };
  }

  /** A fresh profile id, for a key stored before its profile (see Gateway.addProfile). */
  static newId(): string {
    return randomBytes(12).toString('base64url');
  }

  add(input: Omit<StoredProfile, 'id' | 'createdAt' | 'keySetAt'> & { id?: string }): StoredProfile {
    const name = input.name.trim();
    return this.change((state) => {
      this.checkName(state, name, null);
      const profile: StoredProfile = {
        id: input.id ?? ProfileStore.newId(),
        name,
        baseUrl: input.baseUrl.trim(),
        allowInsecureHttp: input.allowInsecureHttp,
        demo: input.demo,
        createdAt: new Date().toISOString(),
      };
      if (state.profiles.some((existing) => existing.id === profile.id)) {
        throw new AppFailure(appError('profile.id_taken'));
      }
      const next = {
        ...state,
        // The first profile becomes the active one by itself.
        activeId: state.activeId ?? profile.id,
        profiles: [...state.profiles, profile],
      };
      return { next, result: { ...profile } };
    });
  }

  update(
    id: string,
    changes: Partial<Pick<StoredProfile, 'name' | 'baseUrl' | 'allowInsecureHttp'>>,
  ): StoredProfile {
    return this.change((state) => {
      const updated = requireIn(state, id);
      if (changes.name !== undefined) {
        updated.name = changes.name.trim();
        this.checkName(state, updated.name, id);
      }
      if (changes.baseUrl !== undefined) updated.baseUrl = changes.baseUrl.trim();
      if (changes.allowInsecureHttp !== undefined) updated.allowInsecureHttp = changes.allowInsecureHttp;
      const next = {
        ...state,
        profiles: state.profiles.map((profile) => (profile.id === id ? updated : profile)),
      };
      return { next, result: { ...updated } };
    });
  }

  /** Records that a new key was stored for the profile, so other processes reload theirs. */
  markKeyChanged(id: string): StoredProfile {
    return this.change((state) => {
      const updated = { ...requireIn(state, id), keySetAt: new Date().toISOString() };
      const next = {
        ...state,
        profiles: state.profiles.map((profile) => (profile.id === id ? updated : profile)),
      };
      return { next, result: { ...updated } };
    });
  }

  /**
   * Changes a profile's "Keep available offline" options (only those given), under the lock
   * against what is on disk now, as every change is.
   */
  setOfflineOptions(id: string, changes: OfflineProfileOptions): StoredProfile {
    return this.change((state) => {
      const current = requireIn(state, id);
      const updated = { ...current, offline: { ...current.offline, ...changes } };
      const next = {
        ...state,
        profiles: state.profiles.map((profile) => (profile.id === id ? updated : profile)),
      };
      return { next, result: { ...updated } };
    });
  }

  /** Removing the active profile makes the first remaining one active (or none). */
  remove(id: string): void {
    this.change((state) => {
      requireIn(state, id);
      const profiles = state.profiles.filter((profile) => profile.id !== id);
      const activeId = state.activeId === id ? (profiles[0]?.id ?? null) : state.activeId;
      return { next: { ...state, activeId, profiles }, result: undefined };
    });
  }

  setActive(id: string): void {
    this.change((state) => {
      requireIn(state, id);
      return { next: state.activeId === id ? null : { ...state, activeId: id }, result: undefined };
    });
  }

  /** Called after another process changed the profiles (noticed by `watch()` or a read). */
  onExternalChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Watches the data dir so that changes by other processes are noticed without a read. The
   * watcher does not keep the process alive (a CLI run ends as usual).
   */
  watch(): void {
    if (this.watcher) return;
    const name = basename(this.file);
    try {
      this.watcher = watch(dirname(this.file), { persistent: false }, (_event, changed) => {
        // Some platforms do not say which file changed: check ours anyway (one stat).
        if (changed === null || changed === name) this.refresh();
      });
      this.watcher.on('error', () => this.unwatch());
    } catch (error) {
      // No watch (a folder removed, a file system without events): reads still re-read.
      this.logger.warn(
        'Watching the profiles file failed; changes by other processes show on the next read.',
        {
          code: (error as NodeJS.ErrnoException).code,
        },
      );
    }
  }

  close(): void {
    this.unwatch();
    this.lock.close();
  }

  private unwatch(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  private checkName(state: ProfilesFile, name: string, ownId: string | null): void {
    if (name === '') {
      throw invalidField('name', 'field.profile_name_required');
    }
    const clash = state.profiles.find(
      (profile) => profile.id !== ownId && nameKey(profile.name) === nameKey(name),
    );
    if (clash) {
      throw invalidField('name', 'profile.name_taken', { name: clash.name });
    }
  }

  /**
   * One change: under the cross-process lock, re-read the file, apply `edit` to what is on
   * disk now (never to an older copy in memory), write the result. `next: null` writes nothing.
   */
  private change<T>(edit: (state: ProfilesFile) => { next: ProfilesFile | null; result: T }): T {
    return this.lock.run(() => {
      this.refresh();
      if (this.unreadableFileProblem) throw new AppFailure(this.unreadableFileProblem);
      const { next, result } = edit(this.state);
      if (next) this.save(next);
      return result;
    });
  }

  /** Re-reads the file when another process replaced it; tells listeners when it did. */
  private refresh(): void {
    let signature: string | null;
    try {
      signature = signatureOf(statSync(this.file));
    } catch (error) {
      // Gone: another process (or the user) removed it. Anything else: keep what we have.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
      signature = null;
    }
    if (signature === this.seen) return;
    const before = JSON.stringify(this.state);
    // Remembered first: a file that cannot be used is not retried (nor logged) until it changes.
    this.seen = signature;
    if (signature === null) {
      this.state = { version: 1, activeId: null, profiles: [] };
      this.seen = null;
    } else {
      this.load();
    }
    if (JSON.stringify(this.state) !== before) {
      for (const listener of this.listeners) {
        try {
          listener();
        } catch (error) {
          this.logger.warn('A profile change listener failed.', {
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
  }

  private load(): void {
    let text: string;
    let signature: string;
    try {
      const fd = openSync(this.file, 'r');
      try {
        signature = signatureOf(fstatSync(fd));
        // Stryker disable next-line StringLiteral: JSON.parse reads a Buffer as its UTF-8 text, so without the encoding nothing changes
        text = readFileSync(fd, 'utf8');
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.setAside({ reason: 'unreadable', readCode: errorCode(error) });
      return;
    }
    let parsed: ReturnType<typeof ProfilesFileSchema.safeParse>;
    try {
      parsed = ProfilesFileSchema.safeParse(JSON.parse(text));
    } catch {
      this.setAside({ reason: 'not_json' });
      return;
    }
    if (!parsed.success) {
      this.setAside({ reason: 'not_profiles' });
      return;
    }
    const ids = new Set(parsed.data.profiles.map((profile) => profile.id));
    const activeId =
      parsed.data.activeId !== null && ids.has(parsed.data.activeId) ? parsed.data.activeId : null;
    this.state = { ...parsed.data, activeId: activeId ?? parsed.data.profiles[0]?.id ?? null };
    this.seen = signature;
    this.unreadableFileProblem = null;
  }

  /** Keeps an unusable file as profiles.json.corrupt-<time> and starts with no profiles. */
  private setAside(why: UnusableProfilesFile): void {
    const aside = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '')}`;
    try {
      renameSync(this.file, aside);
      this.state = { version: 1, activeId: null, profiles: [] };
      this.seen = null;
      this.logger.warn(
        `The profiles file could not be used because ${unusableProfilesWords(why)}; it was kept aside and ReportDesk starts with no profiles.`,
        { aside },
      );
    } catch (error) {
      this.unreadableFileProblem = appError('profile.file_unusable', {
        file: this.file,
        ...why,
        asideCode: errorCode(error),
      });
      this.logger.error(this.unreadableFileProblem.message);
    }
  }

  private save(next: ProfilesFile): void {
    let signature: string;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      signature = signatureOf(writeFileAtomic(this.file, JSON.stringify(next, null, 2) + '\n'));
    } catch (error) {
      this.logger.error('Saving the profiles failed.', { code: (error as NodeJS.ErrnoException).code });
      throw new AppFailure(appError('profile.save_failed', { file: this.file, code: errorCode(error) }));
    }
    this.state = next;
    this.seen = signature;
  }
}

function requireIn(state: ProfilesFile, id: string): StoredProfile {
  const found = state.profiles.find((profile) => profile.id === id);
  if (!found) throw new AppFailure(appError('profile.not_found'));
  return { ...found };
}

function nameKey(name: string): string {
  return name.trim().toLowerCase();
}
