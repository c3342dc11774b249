/**
 * The app-wide update settings (`update-settings.json` in the data dir): automatic checks on or
 * off, the channel, when the feed was last read. Every change is a read-modify-write under a
 * cross-process lock (../fileLock.ts on `update-settings.lock`), written atomically, 0600. A
 * file that cannot be read is moved aside when the next change is written, never lost.
 *
 * It also keeps electron-updater's staging id (`.updaterId`, the install's place in a
 * `stagingPercentage` rollout), made here once, atomically and under the same lock, so
 * electron-updater only ever reads it.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UPDATE_CHANNELS, type UpdatePreferences } from '../../../shared/contract';
import { AppFailure } from '../../../shared/errors';
import { writeFileAtomic } from '../atomicWrite';
import { errorCode } from '../errorCode';
import { FileLock, lockFailure } from '../fileLock';
import { silentLogger, type Logger } from '../log';

export const UPDATE_SETTINGS_FILE = 'update-settings.json';
export const UPDATE_SETTINGS_LOCK_FILE = 'update-settings.lock';
/** electron-updater's name for the staging id, in its userData (our data dir). */
export const STAGING_ID_FILE = '.updaterId';
const LOCK_WAIT_MS = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SettingsSchema = z.object({
  version: z.literal(1),
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

type Read = { settings: UpdateSettings; unreadable: boolean };

export class UpdateSettingsStore {
  private readonly file: string;
  private readonly stagingIdFile: string;
  private readonly lock: FileLock;
  private readonly logger: Logger;
  private readonly waitMs: number;

  constructor(dataDir: string, options: { logger?: Logger; lockWaitMs?: number } = {}) {
    this.file = join(dataDir, UPDATE_SETTINGS_FILE);
    this.stagingIdFile = join(dataDir, STAGING_ID_FILE);
    this.logger = (options.logger ?? silentLogger).child('update-settings');
    this.waitMs = options.lockWaitMs ?? LOCK_WAIT_MS;
    this.lock = new FileLock(join(dataDir, UPDATE_SETTINGS_LOCK_FILE), this.waitMs, (error) =>
      this.failure(error),
    );
  }

  read(): UpdateSettings {
    return this.readFile().settings;
  }

  /** Applies `changes` to what is on disk now and writes the result; answers it. */
  change(changes: Partial<UpdateSettings>): UpdateSettings {
    return this.lock.run(() => {
      const current = this.readFile();
      const next: UpdateSettings = { ...current.settings, ...changes };
      try {
        // Kept for a person to look at; the settings start again from the defaults.
        if (current.unreadable) renameSync(this.file, `${this.file}.unreadable-${Date.now()}`);
        writeFileAtomic(this.file, `${JSON.stringify({ version: 1, ...next }, null, 2)}\n`);
      } catch (error) {
        throw this.failure(error);
      }
      return next;
    });
  }

  /** The staging id, made (a random UUID) when there is none or it is not one. */
  ensureStagingId(): string {
    return this.lock.run(() => {
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
        throw this.failure(error);
      }
      return id;
    });
  }

  close(): void {
    this.lock.close();
  }

  private readFile(): Read {
    try {
      const text = readText(this.file);
      if (text === null) return { settings: { ...DEFAULT_UPDATE_SETTINGS }, unreadable: false };
      const parsed = SettingsSchema.safeParse(JSON.parse(text));
      if (parsed.success) {
        const { version: _version, ...settings } = parsed.data;
        return { settings, unreadable: false };
      }
    } catch {
      // Not JSON, or not a file that can be read: unreadable, as below.
    }
    this.logger.warn('The update settings could not be read; using the defaults.', { file: this.file });
    return { settings: { ...DEFAULT_UPDATE_SETTINGS }, unreadable: true };
  }

  private failure(error: unknown): AppFailure {
    return lockFailure(
      {
        subject: 'The update settings',
        otherHolders: 'window',
        file: this.file,
        waitMs: this.waitMs,
        logger: this.logger,
        logMessage: 'Saving the update settings failed.',
      },
      error,
    );
  }
}

/** A file's text, or null when it does not exist. */
function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}
