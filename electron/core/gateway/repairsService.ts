/**
 * Repairs for the front ends (issue 30): what ReportDesk repaired by itself (notices, until
 * dismissed), a damaged profiles file waiting for the user's agreement to start afresh, and
 * keys in the keychain that no profile names (to restore or to remove). Every change is
 * announced as `repairs:changed` with the whole status, so a window shows one banner each.
 */
import type { ChannelParsedInput, ProfilesState, RepairsStatus } from '../../../shared/contract';
import type { EventHub } from '../events';
import type { OrphanedKeys } from '../keys/orphanedKeys';
import type { RepairNotes } from '../local/repairNotes';
import type { Logger } from '../log';
import type { ProfileStore } from '../profiles/profileStore';

export interface RepairsServiceOptions {
  notes: RepairNotes;
  profiles: ProfileStore;
  orphans: OrphanedKeys;
  events: EventHub;
  /** Emits the profiles as they are now (after a restore or a fresh start). */
  announceProfiles: () => Promise<ProfilesState>;
  logger: Logger;
}

export class RepairsService {
  private readonly log: Logger;
  private readonly stopListening: () => void;

  constructor(private readonly options: RepairsServiceOptions) {
    this.log = options.logger.child('repairs');
    this.stopListening = options.notes.onNote(() => void this.announce());
  }

  close(): void {
    this.stopListening();
  }

  async status(): Promise<RepairsStatus> {
    const { notes, profiles, orphans } = this.options;
    const damage = profiles.damage();
    return {
      notices: notes.list(),
      profilesDamaged: damage && { file: damage.file, asideAs: damage.asideAs },
      // Orphans are judged against the profiles: not while the list itself cannot be read.
      orphanedKeys: damage
        ? []
        : await orphans.find().catch((error: unknown) => {
            this.log.warn('The keychain could not be searched for orphaned keys.', { error: String(error) });
            return [];
          }),
    };
  }

  async dismiss({ id }: ChannelParsedInput<'repairs:dismiss'>): Promise<RepairsStatus> {
    this.options.notes.dismiss(id);
    return this.announce();
  }

  async restoreKeys(input: ChannelParsedInput<'repairs:restoreKeys'>): Promise<RepairsStatus> {
    if ((await this.options.orphans.restore(input?.accounts)) > 0) await this.options.announceProfiles();
    return this.announce();
  }

  async removeKeys(input: ChannelParsedInput<'repairs:removeKeys'>): Promise<RepairsStatus> {
    await this.options.orphans.remove(input?.accounts);
    return this.announce();
  }

  /** The user agreed to a new, empty profile list over a damaged file without a backup. */
  async startAfresh(): Promise<ProfilesState> {
    this.options.profiles.startAfresh();
    void this.announce();
    return this.options.announceProfiles();
  }

  private async announce(): Promise<RepairsStatus> {
    const status = await this.status();
    this.options.events.emit('repairs:changed', status);
    return status;
  }
}
