/**
 * Profiles: a name, a base URL and options per Report Service account, in one JSON file
 * (`{ "version": 1, "activeId": …, "profiles": […] }`). No secret is ever written here: keys
 * live in the keychain (see ../keys). Writes are atomic (temp file, fsync, rename, fsync of the
 * folder), so a crash leaves either the old file or the new one.
 *
 * Every change keeps the previous good file as `profiles.json.backup` (issue 30). A damaged
 * file (truncated, garbage, the wrong shape, unreadable) is never read as "no profiles": its
 * backup is restored (the damaged file kept as `profiles.json.corrupt-<time>`, the restore told
 * through `onRestored`); without a backup the store is blocked — every read and change fails
 * with `damaged` / `profiles_damaged` and nothing is written over the file — until the user
 * agrees to start a new list (`startAfresh`). A file of a newer ReportDesk is never touched.
 * Pending keychain changes (profileRecord.ts › PendingKeyChange) are kept in the file too.
 *
 * Several processes (the app and CLI runs) share the file. Every change is a read-modify-write
 * under a cross-process lock (./profilesLock.ts: an IMMEDIATE transaction on a small SQLite
 * file beside it, profiles.lock). The OS releases that lock when its holder exits or is
 * killed, so a crashed process never leaves a stale lock behind (no pid files). Reads
 * re-read the file whenever it was replaced (a stat per call), and `watch()` reports changes
 * made by other processes to `onExternalChange` listeners.
 */
import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { AppFailure, appError, invalidField } from '../../../shared/errors';
import { silentLogger, type Logger } from '../log';
import { ownerToken } from '../processOwner';
import type { OfflineProfileOptions, PendingKeyChange, ProfilesFile, StoredProfile } from './profileRecord';
import { ProfilesLock } from './profilesLock';
import { ProfilesOnDisk, type ProfilesDamage, type ProfilesRestored } from './profilesOnDisk';

export { PROFILE_LOCK_WAIT_MS, profilesLockFile } from './profilesLock';

export type { PendingKeyChange, StoredProfile } from './profileRecord';
export type { ProfilesDamage, ProfilesRestored } from './profilesOnDisk';

export class ProfileStore {
  private readonly file: string;
  private readonly lock: ProfilesLock;
  private readonly logger: Logger;
  /** The file as last read or written, and what to do when it cannot be used. */
  private readonly disk: ProfilesOnDisk;
  private watcher: FSWatcher | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    file: string,
    options: { logger?: Logger; lockWaitMs?: number; onRestored?: (restored: ProfilesRestored) => void } = {},
  ) {
    this.file = file;
    this.logger = (options.logger ?? silentLogger).child('profiles');
    this.lock = new ProfilesLock(file, this.logger, options.lockWaitMs);
    this.disk = new ProfilesOnDisk(file, this.lock, this.logger, options.onRestored ?? (() => undefined));
  }

  private get state(): ProfilesFile {
    return this.disk.state;
  }

  /** In creation order. */
  list(): StoredProfile[] {
    this.usable();
    return this.state.profiles.map((profile) => ({ ...profile }));
  }

  get(id: string): StoredProfile | undefined {
    this.usable();
    const found = this.state.profiles.find((profile) => profile.id === id);
    return found && { ...found };
  }

  /** The damaged file waiting for the user's agreement (`startAfresh`), or null. */
  damage(): ProfilesDamage | null {
    this.refresh();
    return this.disk.damage();
  }

  /** The keychain changes recorded as in progress (by any process). */
  pendingKeyChanges(): PendingKeyChange[] {
    this.usable();
    return (this.state.pending ?? []).map((change) => ({ ...change }));
  }

  /** Like get, for an id the user acted on: a profile removed meanwhile is a `not_found`. */
  requireProfile(id: string): StoredProfile {
    const found = this.get(id);
    if (!found) throw new AppFailure(appError('profile.not_found'));
    return found;
  }

  findByName(name: string): StoredProfile | undefined {
    this.usable();
    const wanted = nameKey(name);
    const found = this.state.profiles.find((profile) => nameKey(profile.name) === wanted);
    return found && { ...found };
  }

  activeId(): string | null {
    this.usable();
    return this.state.activeId;
  }

  /** The active profile, with one look at the file (each request asks): undefined when none is. */
  activeProfile(): StoredProfile | undefined {
    this.usable();
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
      const next = withoutPending(
        {
          ...state,
          // The first profile becomes the active one by itself.
          activeId: state.activeId ?? profile.id,
          profiles: [...state.profiles, profile],
        },
        profile.id,
      );
      return { next, result: { ...profile } };
    });
  }

  /**
   * Records a keychain change before it is made (an add's key, a removed profile's key), so that
   * the key is no orphan while this process works on it; cleared by the write that completes it.
   */
  beginKeyChange(change: Omit<PendingKeyChange, 'owner' | 'at'>): void {
    this.change((state) => {
      const pending = { ...change, owner: ownerToken(), at: new Date().toISOString() };
      return {
        next: { ...withoutPending(state, change.id), pending: [...(state.pending ?? []), pending] },
        result: undefined,
      };
    });
  }

  /** Clears the record of a keychain change that is done (or will never be). */
  endKeyChange(id: string): void {
    this.change((state) =>
      (state.pending ?? []).some((change) => change.id === id)
        ? { next: withoutPending(state, id), result: undefined }
        : { next: null, result: undefined },
    );
  }

  /**
   * Brings profiles back with their ids (orphaned keys restored from a backup or an interrupted
   * add); a name taken meanwhile gets " (restored)". Answers the profiles added.
   */
  restore(profiles: readonly StoredProfile[]): StoredProfile[] {
    return this.change((state) => {
      let next = state;
      const added: StoredProfile[] = [];
      for (const profile of profiles) {
        if (next.profiles.some((existing) => existing.id === profile.id)) continue;
        const taken = next.profiles.some((existing) => nameKey(existing.name) === nameKey(profile.name));
        const restored = { ...profile, name: taken ? `${profile.name} (restored)` : profile.name };
        added.push(restored);
        next = withoutPending(
          { ...next, activeId: next.activeId ?? restored.id, profiles: [...next.profiles, restored] },
          profile.id,
        );
      }
      return { next: added.length > 0 ? next : null, result: added };
    });
  }

  /**
   * The user agrees to start a new, empty list over a damaged file that had no backup: the
   * damaged file goes (its copy stays where damage() said; one is made now if none could be).
   */
  startAfresh(): void {
    this.lock.run(() => {
      this.refresh();
      this.disk.startAfresh();
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

  /**
   * Removing the active profile makes the first remaining one active (or none). `keyPending`:
   * its key is deleted next, and a record says so in the same write (beginKeyChange).
   */
  remove(id: string, options: { keyPending?: boolean } = {}): void {
    this.change((state) => {
      requireIn(state, id);
      const profiles = state.profiles.filter((profile) => profile.id !== id);
      const activeId = state.activeId === id ? (profiles[0]?.id ?? null) : state.activeId;
      const removed = withoutPending({ ...state, activeId, profiles }, id);
      const pending: PendingKeyChange = {
        id,
        op: 'remove',
        owner: ownerToken(),
        at: new Date().toISOString(),
      };
      const next = options.keyPending
        ? { ...removed, pending: [...(removed.pending ?? []), pending] }
        : removed;
      return { next, result: undefined };
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
      this.usable();
      const { next, result } = edit(this.state);
      if (next) this.disk.save(next);
      return result;
    });
  }

  /** Re-reads the file when it changed, then fails if it cannot be used (damaged, unreadable, newer). */
  private usable(): void {
    this.refresh();
    this.disk.failIfUnusable();
  }

  /** Re-reads the file when another process replaced it; tells listeners when it did. */
  private refresh(): void {
    if (!this.disk.refresh()) return;
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

/** `state` without the pending keychain changes of `id` (and without the key when none is left). */
function withoutPending(state: ProfilesFile, id: string): ProfilesFile {
  const { pending, ...rest } = state;
  const left = (pending ?? []).filter((change) => change.id !== id);
  return left.length > 0 ? { ...rest, pending: left } : rest;
}

function requireIn(state: ProfilesFile, id: string): StoredProfile {
  const found = state.profiles.find((profile) => profile.id === id);
  if (!found) throw new AppFailure(appError('profile.not_found'));
  return { ...found };
}

function nameKey(name: string): string {
  return name.trim().toLowerCase();
}
