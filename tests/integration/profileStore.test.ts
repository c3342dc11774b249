/**
 * ProfileStore promises the main tests (profiles.test.ts) leave open: edits of the URL and the
 * insecure flag are saved, an empty name is refused, and a profiles file that cannot be read is
 * never taken for a missing one (which the next save would overwrite). The permission case runs
 * in a child process as an unprivileged user when the suite runs as root, so it runs here too.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, memorySink } from '../../electron/core/log';
import { ProfileStore, profilesLockFile } from '../../electron/core/profiles/profileStore';
import type { AppError } from '../../shared/errors';
import { skipWhen } from '../helpers/skip';
import { failureOf } from '../helpers/failures';
import { profileInput, tempProfilesFile } from '../helpers/profilesFile';

let dir: string;
let file: string;
beforeEach(() => ({ dir, file } = tempProfilesFile('report-desk-profilestore-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const input = profileInput;

const asideFiles = () =>
  readdirSync(join(dir, 'data')).filter((name) => name.startsWith('profiles.json.corrupt-'));

describe('editing a profile', () => {
  it('saves a new base URL and insecure flag, and a later instance reads them', () => {
    const store = new ProfileStore(file);
    const { id } = store.add(input('Work'));
    const updated = store.update(id, { baseUrl: '  http://10.0.0.5:8080  ', allowInsecureHttp: true });
    expect(updated).toMatchObject({ name: 'Work', baseUrl: 'http://10.0.0.5:8080', allowInsecureHttp: true });
    expect(new ProfileStore(file).get(id)).toMatchObject({
      baseUrl: 'http://10.0.0.5:8080',
      allowInsecureHttp: true,
    });
    store.update(id, { allowInsecureHttp: false });
    expect(new ProfileStore(file).get(id)).toMatchObject({
      baseUrl: 'http://10.0.0.5:8080',
      allowInsecureHttp: false,
    });
  });

  it('trims the base URL and the name on add', () => {
    const store = new ProfileStore(file);
    const added = store.add({ ...input('  Padded  '), baseUrl: '  https://reports.example.com/x  ' });
    expect(new ProfileStore(file).get(added.id)).toMatchObject({
      name: 'Padded',
      baseUrl: 'https://reports.example.com/x',
    });
  });

  it('leaves the fields it was not given as they were', () => {
    const store = new ProfileStore(file);
    const { id } = store.add({ ...input('Keep'), allowInsecureHttp: true });
    store.update(id, { name: '  Renamed ' });
    expect(new ProfileStore(file).get(id)).toMatchObject({
      name: 'Renamed',
      baseUrl: 'https://reports.example.com',
      allowInsecureHttp: true,
    });
  });

  it('refuses an empty or blank name on add and on rename, and saves nothing', () => {
    const store = new ProfileStore(file);
    const { id } = store.add(input('Named'));
    for (const run of [
      () => store.add(input('')),
      () => store.add(input('   ')),
      () => store.update(id, { name: ' ' }),
    ]) {
      const error = failureOf(run);
      expect(error.kind).toBe('invalid_input');
      expect(error.fieldErrors?.name?.[0]).toMatch(/name/i);
    }
    expect(new ProfileStore(file).list().map((profile) => profile.name)).toEqual(['Named']);
  });

  it('lets a profile keep its own name under another case', () => {
    const store = new ProfileStore(file);
    const { id } = store.add(input('Work'));
    expect(store.update(id, { name: 'WORK' }).name).toBe('WORK');
  });
});

describe('a profiles file that cannot be read', () => {
  it('is never taken for a missing file when it is a folder (EISDIR, which root gets too), until the user starts afresh', () => {
    mkdirSync(file, { recursive: true });
    writeFileSync(join(file, 'inside.txt'), 'kept');
    const sink = memorySink();
    const store = new ProfileStore(file, { logger: createLogger('test', sink) });
    const error = failureOf(() => store.list());
    expect(error).toMatchObject({
      kind: 'damaged',
      reason: 'profiles_damaged',
      details: { file, asideAs: file },
    });
    expect(error.message).toContain(
      'could not be read (EISDIR), and there is no backup to restore. It is kept as it is;',
    );
    expect(sink.lines.join('\n')).toMatch(/ERROR .*could not be read \(EISDIR\)/);
    expect(failureOf(() => store.add(input('Fresh'))).kind).toBe('damaged');
    // The user agrees: the folder is moved aside whole, and a new list starts.
    store.startAfresh();
    const [aside] = asideFiles();
    expect(readFileSync(join(dir, 'data', aside, 'inside.txt'), 'utf8')).toBe('kept');
    store.add(input('Fresh'));
    expect(new ProfileStore(file).list().map((profile) => profile.name)).toEqual(['Fresh']);
  });

  it('is never overwritten when it can be neither read nor moved aside, in this process, as any user', () => {
    // A folder (EISDIR on read, for root too) whose name leaves no room for the ".corrupt-<time>"
    // suffix (ENAMETOOLONG on rename, for root too).
    const longFile = join(dir, 'data', 'p'.repeat(240));
    mkdirSync(longFile, { recursive: true });
    writeFileSync(join(longFile, 'inside.txt'), 'kept');
    const store = new ProfileStore(longFile);
    expect(failureOf(() => store.list()).kind).toBe('damaged');
    expect(failureOf(() => store.add(input('New'))).kind).toBe('damaged');
    // Starting afresh needs it moved: it cannot be, so nothing is written over it.
    expect(failureOf(() => store.startAfresh()).message).toMatch(/\(ENAMETOOLONG\)/);
    expect(readFileSync(join(longFile, 'inside.txt'), 'utf8')).toBe('kept');
    expect(asideFiles()).toEqual([]);
  });

  it.skipIf(skipWhen(process.platform === 'win32', 'POSIX permissions do not exist on Windows'))(
    'is neither overwritten nor emptied when it can be neither read nor moved aside',
    async () => {
      new ProfileStore(file).add(input('Kept'));
      const original = readFileSync(file, 'utf8');
      // Root ignores file permissions, so then the child drops to "nobody", who owns the files.
      const asRoot = process.getuid?.() === 0;
      if (asRoot) {
        // The profiles lock beside the file too: the store takes it before it reads the file.
        for (const path of [dir, join(dir, 'data'), file, profilesLockFile(file)])
          chownSync(path, 65534, 65534);
      }
      chmodSync(file, 0o000);
      chmodSync(join(dir, 'data'), 0o500);
      const child = join(__dirname, '../fixtures/profilesUnreadableChild.ts');
      const args = ['--import', 'tsx', child, file, ...(asRoot ? ['65534'] : [])];
      let stdout: string;
      try {
        ({ stdout } = await promisify(execFile)(process.execPath, args, { cwd: join(__dirname, '../..') }));
      } finally {
        chmodSync(join(dir, 'data'), 0o700);
        chmodSync(file, 0o600);
      }
      const result = JSON.parse(stdout) as {
        uid: number;
        listError: AppError | null;
        addError: AppError | null;
        log: string[];
      };
      expect(result.uid).not.toBe(0);
      // Never read as "no profiles": every read and change says the file cannot be used.
      expect(result.listError).toMatchObject({ kind: 'damaged', reason: 'profiles_damaged' });
      expect(result.addError?.kind).toBe('damaged');
      expect(result.addError?.message).toMatch(/could not be used because it could not be read \(EACCES\)/);
      expect(result.log.join('\n')).toMatch(/ERROR .*could not be read \(EACCES\)/);
      expect(readFileSync(file, 'utf8')).toBe(original);
      expect(statSync(join(dir, 'data')).isDirectory()).toBe(true);
      expect(asideFiles()).toEqual([]);
      expect(new ProfileStore(file).list().map((profile) => profile.name)).toEqual(['Kept']);
    },
  );
});

describe('the active profile after loading', () => {
  it('falls back to the first profile when the stored active id names none', () => {
    const store = new ProfileStore(file);
    const first = store.add(input('First'));
    store.add(input('Second'));
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { activeId: string | null };
    for (const activeId of ['gone-profile', null]) {
      writeFileSync(file, JSON.stringify({ ...saved, activeId }));
      expect(new ProfileStore(file).activeId()).toBe(first.id);
    }
  });

  it('has no active profile when there are none', () => {
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, activeId: 'gone', profiles: [] }));
    expect(new ProfileStore(file).activeId()).toBeNull();
  });
});
