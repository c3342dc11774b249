/**
 * Profiles: a name, a base URL and options per Report Service account, in one JSON file
 * (`{ "version": 1, "activeId": …, "profiles": […] }`). No secret is ever written here: keys
 * live in the keychain (see ../keys). Writes are atomic (temp file, fsync, rename), so a crash
 * leaves either the old file or the new one.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { AppFailure, appError, invalidField } from '../../../shared/errors';
import { silentLogger, type Logger } from '../log';
import { PROFILE_NAME_REQUIRED } from '../../../shared/profileRules';

export interface StoredProfile {
  id: string;
  name: string;
  baseUrl: string;
  allowInsecureHttp: boolean;
  demo: boolean;
  createdAt: string;
}

const StoredProfileSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  name: z.string().min(1),
  baseUrl: z.string(),
  allowInsecureHttp: z.boolean(),
  demo: z.boolean(),
  createdAt: z.string(),
});

const ProfilesFileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().nullable(),
  profiles: z.array(StoredProfileSchema),
});
type ProfilesFile = z.infer<typeof ProfilesFileSchema>;

const NOT_FOUND = 'That profile no longer exists.';

export class ProfileStore {
  private readonly file: string;
  private readonly logger: Logger;
  private state: ProfilesFile = { version: 1, activeId: null, profiles: [] };
  /** Set when the file could be neither read nor moved aside: writing would destroy it. */
  private unreadableFileProblem: string | null = null;

  constructor(file: string, options: { logger?: Logger } = {}) {
    this.file = file;
    this.logger = (options.logger ?? silentLogger).child('profiles');
    this.load();
  }

  /** In creation order. */
  list(): StoredProfile[] {
    return this.state.profiles.map((profile) => ({ ...profile }));
  }

  get(id: string): StoredProfile | undefined {
    const found = this.state.profiles.find((profile) => profile.id === id);
    return found && { ...found };
  }

  /** Like get, for an id the user acted on: a profile removed meanwhile is a `not_found`. */
  requireProfile(id: string): StoredProfile {
    const found = this.get(id);
    if (!found) throw new AppFailure(appError('not_found', NOT_FOUND));
    return found;
  }

  findByName(name: string): StoredProfile | undefined {
    const wanted = nameKey(name);
    const found = this.state.profiles.find((profile) => nameKey(profile.name) === wanted);
    return found && { ...found };
  }

  activeId(): string | null {
    return this.state.activeId;
  }

  add(input: Omit<StoredProfile, 'id' | 'createdAt'>): StoredProfile {
    const name = input.name.trim();
    this.checkName(name, null);
    const profile: StoredProfile = {
      id: randomBytes(12).toString('base64url'),
      name,
      baseUrl: input.baseUrl.trim(),
      allowInsecureHttp: input.allowInsecureHttp,
      demo: input.demo,
      createdAt: new Date().toISOString(),
    };
    this.save({
      ...this.state,
      // The first profile becomes the active one by itself.
      activeId: this.state.activeId ?? profile.id,
      profiles: [...this.state.profiles, profile],
    });
    return { ...profile };
  }

  update(
    id: string,
    changes: Partial<Pick<StoredProfile, 'name' | 'baseUrl' | 'allowInsecureHttp'>>,
  ): StoredProfile {
    const updated = this.requireProfile(id);
    if (changes.name !== undefined) {
      updated.name = changes.name.trim();
      this.checkName(updated.name, id);
    }
    if (changes.baseUrl !== undefined) updated.baseUrl = changes.baseUrl.trim();
    if (changes.allowInsecureHttp !== undefined) updated.allowInsecureHttp = changes.allowInsecureHttp;
    this.save({
      ...this.state,
      profiles: this.state.profiles.map((profile) => (profile.id === id ? updated : profile)),
    });
    return { ...updated };
  }

  /** Removing the active profile makes the first remaining one active (or none). */
  remove(id: string): void {
    this.requireProfile(id);
    const profiles = this.state.profiles.filter((profile) => profile.id !== id);
    const activeId = this.state.activeId === id ? (profiles[0]?.id ?? null) : this.state.activeId;
    this.save({ ...this.state, activeId, profiles });
  }

  setActive(id: string): void {
    this.requireProfile(id);
    if (this.state.activeId !== id) this.save({ ...this.state, activeId: id });
  }

  private checkName(name: string, ownId: string | null): void {
    if (name === '') {
      throw invalidField('name', PROFILE_NAME_REQUIRED);
    }
    const clash = this.state.profiles.find(
      (profile) => profile.id !== ownId && nameKey(profile.name) === nameKey(name),
    );
    if (clash) {
      const message = `A profile named "${clash.name}" already exists. Choose another name.`;
      throw invalidField('name', message);
    }
  }

  private load(): void {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.setAside(`it could not be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
      return;
    }
    let parsed: ReturnType<typeof ProfilesFileSchema.safeParse>;
    try {
      parsed = ProfilesFileSchema.safeParse(JSON.parse(text));
    } catch {
      this.setAside('it is not valid JSON');
      return;
    }
    if (!parsed.success) {
      this.setAside('its content is not a profile list ReportDesk understands');
      return;
    }
    const ids = new Set(parsed.data.profiles.map((profile) => profile.id));
    const activeId =
      parsed.data.activeId !== null && ids.has(parsed.data.activeId) ? parsed.data.activeId : null;
    this.state = { ...parsed.data, activeId: activeId ?? parsed.data.profiles[0]?.id ?? null };
  }

  /** Keeps an unusable file as profiles.json.corrupt-<time> and starts with no profiles. */
  private setAside(reason: string): void {
    const aside = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '')}`;
    try {
      renameSync(this.file, aside);
      this.logger.warn(
        `The profiles file could not be used because ${reason}; it was kept aside and ReportDesk starts with no profiles.`,
        { aside },
      );
    } catch (error) {
      this.unreadableFileProblem = `The profiles file ${this.file} could not be used because ${reason}, and it could not be moved aside (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}). Check the permissions of that folder, then restart ReportDesk.`;
      this.logger.error(this.unreadableFileProblem);
    }
  }

  private save(next: ProfilesFile): void {
    if (this.unreadableFileProblem) throw new AppFailure(appError('internal', this.unreadableFileProblem));
    const dir = dirname(this.file);
    const temp = join(dir, `.${basename(this.file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      mkdirSync(dir, { recursive: true });
      const fd = openSync(temp, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify(next, null, 2) + '\n');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, this.file);
      syncDirectory(dir);
    } catch (error) {
      removeQuietly(temp);
      this.logger.error('Saving the profiles failed.', { code: (error as NodeJS.ErrnoException).code });
      throw new AppFailure(
        appError(
          'internal',
          `The profiles could not be saved to ${this.file} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}). Check that the disk has space and the folder is writable, then try again.`,
        ),
      );
    }
    this.state = next;
  }
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // The folder itself is gone or unusable: there is no temp file to leave behind.
  }
}

function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Makes the rename itself durable; not possible (nor needed) on Windows. */
function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename has still happened.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
