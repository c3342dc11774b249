/**
 * Keys in the keychain that no profile names (issue 30): left by a process killed between the
 * two writes of `profiles add` (key, then profile) or of a remove (profile, then key), or by a
 * damaged profiles file. They are found, offered to restore the profile they belonged to (where
 * ReportDesk still knows it: the interrupted add's record, the profiles backup, a damaged copy
 * set aside) or to remove, and never kept for nobody without the user being told.
 *
 * Only keys this data folder has evidence of count: the keychain service may be shared with
 * another data folder (a development run, REPORT_DESK_DATA_DIR) whose keys are not ours. The
 * evidence is a record of an interrupted change, or a profile of the backup or of a damaged copy
 * that the current list no longer has (profilesFile.ts › knownProfiles).
 *
 * A key another process is adding right now is no orphan: every keychain change is recorded in
 * profiles.json before it is made (ProfileStore.beginKeyChange) and cleared by the write that
 * completes it, and a record whose process still runs (core/processOwner) explains its key. A
 * record whose process is gone is settled here: a remove is finished (its key deleted, its
 * cached rows dropped); an add whose key never arrived is forgotten; an add whose key did is an
 * orphan with its profile to restore.
 */
import { failureCode } from '../errorCode';
import type { OrphanedKey } from '../../../shared/contract';
import type { Logger } from '../log';
import { ownerIsGone } from '../processOwner';
import type { StoredProfile } from '../profiles/profileRecord';
import { knownProfiles } from '../profiles/profilesFile';
import type { PendingKeyChange, ProfileStore } from '../profiles/profileStore';
import type { KeyVault } from './keyVault';

export interface OrphanedKeysOptions {
  keys: KeyVault;
  profiles: ProfileStore;
  /** profiles.json: its backup and damaged copies are read for the profiles to restore. */
  profilesFile: string;
  /** Drops what the cache holds for a profile that is gone (a remove cut short). */
  clearScope: (profileId: string) => void;
  logger: Logger;
}

/** An orphan with what is needed to bring its profile back. */
interface Found extends OrphanedKey {
  stored: StoredProfile | null;
}

export class OrphanedKeys {
  constructor(private readonly options: OrphanedKeysOptions) {}

  /** Settles what killed processes left half done, then answers the keys no profile names. */
  async find(): Promise<OrphanedKey[]> {
    return (await this.found()).map(({ stored: _stored, ...orphan }) => orphan);
  }

  /** Brings back the profiles of these orphans (all when none is named) where they are known; answers how many. */
  async restore(accounts?: readonly string[]): Promise<number> {
    const chosen = (await this.found()).filter(
      (orphan) => accounts === undefined || accounts.includes(orphan.account),
    );
    const restorable = chosen.flatMap((orphan) => (orphan.stored ? [orphan.stored] : []));
    if (restorable.length === 0) return 0;
    const added = this.options.profiles.restore(restorable);
    this.options.logger.info('Profiles of orphaned keys restored.', { count: added.length });
    return added.length;
  }

  /** Deletes these orphaned keys from the keychain (all when none is named); answers how many. */
  async remove(accounts?: readonly string[]): Promise<number> {
    const chosen = (await this.found()).filter(
      (orphan) => accounts === undefined || accounts.includes(orphan.account),
    );
    let removed = 0;
    for (const { account } of chosen) {
      // Looked at again right before: a profile restored meanwhile by another process keeps its key.
      if (this.options.profiles.get(account)) continue;
      await this.options.keys.delete(account);
      this.forgetRecord(account);
      removed++;
    }
    if (removed > 0) this.options.logger.info('Orphaned keys removed from the keychain.', { count: removed });
    return removed;
  }

  private async found(): Promise<Found[]> {
    const { keys, profiles } = this.options;
    const explained = new Set<string>();
    const interrupted = new Map<string, PendingKeyChange>();
    for (const change of profiles.pendingKeyChanges()) {
      if (!ownerIsGone(change.owner)) explained.add(change.id);
      else if (change.op === 'remove') {
        await this.finishRemove(change.id);
        explained.add(change.id);
      } else interrupted.set(change.id, change);
    }
    const named = new Set(profiles.list().map((profile) => profile.id));
    const known = knownProfiles(this.options.profilesFile);
    // Only keys this folder has evidence of: another data folder may share the keychain service.
    const candidates = new Set(
      [...interrupted.keys(), ...known.map((profile) => profile.id)].filter(
        (id) => !named.has(id) && !explained.has(id),
      ),
    );
    if (candidates.size === 0) return [];
    const accounts = await keys.keychainAccounts();
    if (accounts === null) return [];
    const inKeychain = new Set(accounts.map((entry) => entry.account));
    // An add killed before its key arrived left nothing to restore.
    for (const id of interrupted.keys()) if (!inKeychain.has(id)) this.forgetRecord(id);
    return accounts
      .filter(({ account }) => candidates.has(account))
      .map(({ account, keyHint }) => {
        const pending = interrupted.get(account);
        if (pending?.profile) {
          const stored: StoredProfile = {
            id: account,
            ...pending.profile,
            demo: false,
            createdAt: pending.at,
          };
          return { account, keyHint, profile: this.shown(stored), foundIn: 'interrupted_add', stored };
        }
        // Where it is known whole; an id alone (a damaged copy's remains) restores nothing.
        const found = known.find((profile) => profile.id === account && profile.stored !== null);
        const stored = found?.stored ?? null;
        return {
          account,
          keyHint,
          profile: stored && this.shown(stored),
          foundIn: found?.source ?? null,
          stored,
        };
      });
  }

  private shown(profile: StoredProfile): { name: string; baseUrl: string } {
    return { name: profile.name, baseUrl: profile.baseUrl };
  }

  /** A remove whose process was killed after the profile went: its key and cached rows go now. */
  private async finishRemove(id: string): Promise<void> {
    await this.options.keys.delete(id);
    try {
      this.options.clearScope(id);
    } catch (error) {
      this.options.logger.warn('The cached rows of a removed profile could not be dropped.', {
        code: failureCode(error),
      });
    }
    this.forgetRecord(id);
    this.options.logger.info('Finished the removal of a profile that a killed process had begun.');
  }

  private forgetRecord(id: string): void {
    this.options.profiles.endKeyChange(id);
  }
}
