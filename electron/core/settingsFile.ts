/**
 * An app-wide settings file in the data dir (`update-settings.json`, `language-settings.json`):
 * JSON with a version, read against its schema, every change a read-modify-write under a
 * cross-process lock (./fileLock.ts on `<name>.lock`), written atomically, 0600. A file that
 * cannot be read gives the defaults, and is moved aside (never lost) when the next change is
 * written.
 */
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { LockedStoreName } from '../../shared/errorCodes';
import type { AppFailure } from '../../shared/errors';
import { writeFileAtomic } from './atomicWrite';
import { errorCode } from './errorCode';
import { FileLock, lockFailure } from './fileLock';
import { silentLogger, type Logger } from './log';

const LOCK_WAIT_MS = 10_000;

export interface SettingsFileOptions<T> {
  dataDir: string;
  /** `update-settings` → update-settings.json, guarded by update-settings.lock. */
  name: string;
  /** The file's content without its `version` (always 1). */
  schema: z.ZodType<T>;
  defaults: T;
  /** Who the sentences of a failed change name. */
  store: LockedStoreName;
  /** What the log lines call it: "the update settings". */
  subject: string;
  logger?: Logger;
  lockWaitMs?: number;
}

type Read<T> = { settings: T; unreadable: boolean };

export class SettingsFile<T extends object> {
  readonly file: string;
  private readonly lock: FileLock;
  private readonly logger: Logger;

  constructor(private readonly options: SettingsFileOptions<T>) {
    this.file = join(options.dataDir, `${options.name}.json`);
    this.logger = (options.logger ?? silentLogger).child(options.name);
    const waitMs = options.lockWaitMs ?? LOCK_WAIT_MS;
    this.lock = new FileLock(join(options.dataDir, `${options.name}.lock`), waitMs, (error) =>
      this.failure(error),
    );
  }

  read(): T {
    return this.readFile().settings;
  }

  /** Applies `changes` to what is on disk now and writes the result; answers it. */
  change(changes: Partial<T>): T {
    return this.locked(() => {
      const current = this.readFile();
      const next: T = { ...current.settings, ...changes };
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

  /** Runs `work` under this file's lock (for a store's other files that share it). */
  locked<R>(work: () => R): R {
    return this.lock.run(work);
  }

  /** A failure to lock or write, as the store's sentence (busy, or could not be saved). */
  failure(error: unknown): AppFailure {
    const waitMs = this.options.lockWaitMs ?? LOCK_WAIT_MS;
    return lockFailure(
      {
        store: this.options.store,
        file: this.file,
        waitMs,
        logger: this.logger,
        logMessage: `Saving ${this.options.subject} failed.`,
      },
      error,
    );
  }

  close(): void {
    this.lock.close();
  }

  private readFile(): Read<T> {
    try {
      const text = readText(this.file);
      if (text === null) return { settings: { ...this.options.defaults }, unreadable: false };
      const json = JSON.parse(text) as { version?: unknown } | null;
      // Stryker disable next-line OptionalChaining: json?.version → json.version (its only direction): a file saying null then throws into the catch below, which ends the same way: the same warning, the defaults, unreadable.
      if (json?.version === 1) {
        const { version: _version, ...rest } = json;
        const parsed = this.options.schema.safeParse(rest);
        if (parsed.success) return { settings: parsed.data, unreadable: false };
      }
    } catch {
      // Not JSON, or not a file that can be read: unreadable, as below.
    }
    const subject = this.options.subject.charAt(0).toUpperCase() + this.options.subject.slice(1);
    this.logger.warn(`${subject} could not be read; using the defaults.`, { file: this.file });
    return { settings: { ...this.options.defaults }, unreadable: true };
  }
}

/** A file's text, or null when it does not exist. */
export function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}
