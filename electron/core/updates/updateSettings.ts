/**
 * The app-wide update settings (`update-settings.json` in the data dir): automatic checks on or
 * off, the channel, when the feed was last read. A settings file (../settingsFile.ts): every
 * change a read-modify-write under `update-settings.lock`, written atomically, 0600; a file that
 * cannot be read is moved aside when the next change is written, never lost.
 *
 * It also keeps electron-updater's staging id (`.updaterId`, the install's place in a
 * `stagingPercentage` rollout), made here once, atomically and under the same lock, so
 * electron-updater only ever reads it.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { UPDATE_CHANNELS, type UpdatePreferences } from '../../../shared/contract';
import { writeFileAtomic } from '../atomicWrite';
import type { Logger } from '../log';
import { readText, SettingsFile } from '../settingsFile';

export const UPDATE_SETTINGS_FILE = 'update-settings.json';
export const UPDATE_SETTINGS_LOCK_FILE = 'update-settings.lock';
/** electron-updater's name for the staging id, in its userData (our data dir). */
export const STAGING_ID_FILE = '.updaterId';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SettingsSchema = z.object({
  automatic: z.boolean(),
  channel: z.enum(UPDATE_CHANNELS),
  lastCheckedAt: z.string().nullable(),
});
export type UpdateSettings = UpdatePreferences & { lastCheckedAt: string | null };

export const DEFAULT_UPDATE_SETTINGS: UpdateSettings = {
  automatic: true,
  channel: 'latest',
  lastCheckedAt: null,
};

export class UpdateSettingsStore {
  private readonly settings: SettingsFile<UpdateSettings>;
  private readonly stagingIdFile: string;

  constructor(dataDir: string, options: { logger?: Logger; lockWaitMs?: number } = {}) {
    this.settings = new SettingsFile({
      dataDir,
      name: 'update-settings',
      schema: SettingsSchema,
      defaults: DEFAULT_UPDATE_SETTINGS,
      store: 'update_settings',
      subject: 'the update settings',
      ...options,
    });
    this.stagingIdFile = join(dataDir, STAGING_ID_FILE);
  }

  read(): UpdateSettings {
    return this.settings.read();
  }

  /** Applies `changes` to what is on disk now and writes the result; answers it. */
  change(changes: Partial<UpdateSettings>): UpdateSettings {
    return this.settings.change(changes);
  }

  /** The staging id, made (a random UUID) when there is none or it is not one. */
  ensureStagingId(): string {
    return this.settings.locked(() => {
      let existing: string | null = null;
      try {
        existing = readText(this.stagingIdFile);
      } catch {
        // Unreadable: a new id replaces it (it only places this install in a rollout).
      }
      if (UUID.test(`${existing}`)) return existing as string;
      const id = randomUUID();
      try {
        // No newline: electron-updater checks the file's whole text as a UUID.
        writeFileAtomic(this.stagingIdFile, id);
      } catch (error) {
        throw this.settings.failure(error);
      }
      return id;
    });
  }

  close(): void {
    this.settings.close();
  }
}
