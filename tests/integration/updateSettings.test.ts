/**
 * The app-wide update settings file and electron-updater's staging id in the data dir: atomic
 * 0600 writes, read-modify-write under update-settings.lock, held by real processes here.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { finished, type CliRun } from '../helpers/cli';
import { AppFailure } from '../../shared/errors';
import { createLogger, memorySink } from '../../electron/core/log';
import {
  STAGING_ID_FILE,
  UPDATE_SETTINGS_FILE,
  UPDATE_SETTINGS_LOCK_FILE,
  UpdateSettingsStore,
} from '../../electron/core/updates/updateSettings';

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'reportdesk-update-settings-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const settingsFile = () => join(dataDir, UPDATE_SETTINGS_FILE);
const onDisk = () => JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;

function runChild(script: string, args: string[]): Promise<CliRun> {
  return finished(
    spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../fixtures', script), ...args]),
  );
}

describe('the settings', () => {
  it('start from automatic checks on the latest channel, never checked, without writing anything', () => {
    const store = new UpdateSettingsStore(dataDir);
    expect(store.read()).toEqual({ automatic: true, channel: 'latest', lastCheckedAt: null });
    expect(readdirSync(dataDir)).toEqual([]);
    store.close();
  });

  it('keep a change, merged with what is on disk, in a 0600 file another store reads', () => {
    const one = new UpdateSettingsStore(dataDir);
    const two = new UpdateSettingsStore(dataDir);
    expect(one.change({ automatic: false })).toEqual({
      automatic: false,
      channel: 'latest',
      lastCheckedAt: null,
    });
    // `two` read nothing before: its change applies to the file as it is now.
    expect(two.change({ channel: 'beta' })).toEqual({
      automatic: false,
      channel: 'beta',
      lastCheckedAt: null,
    });
    expect(onDisk()).toEqual({ version: 1, automatic: false, channel: 'beta', lastCheckedAt: null });
    expect(one.read()).toEqual({ automatic: false, channel: 'beta', lastCheckedAt: null });
    expect(statSync(settingsFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, UPDATE_SETTINGS_LOCK_FILE)).mode & 0o777).toBe(0o600);
    // A file that was read fine is never moved aside.
    expect(readdirSync(dataDir).sort()).toEqual([UPDATE_SETTINGS_FILE, UPDATE_SETTINGS_LOCK_FILE]);
    one.close();
    two.close();
  });

  it('let go of the lock file when closed', () => {
    const lockFile = join(dataDir, UPDATE_SETTINGS_LOCK_FILE);
    const heldOpen = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(join('/proc/self/fd', fd)) === lockFile;
        } catch {
          return false;
        }
      }).length;
    const store = new UpdateSettingsStore(dataDir);
    store.change({ automatic: false });
    expect(heldOpen()).toBe(1);
    store.close();
    expect(heldOpen()).toBe(0);
  });

  it('a settings path that is a folder is unreadable: moved aside whole at the next change', () => {
    const lines = memorySink();
    mkdirSync(settingsFile());
    writeFileSync(join(settingsFile(), 'note.txt'), 'keep me');
    const store = new UpdateSettingsStore(dataDir, { logger: createLogger('t', lines) });
    expect(store.read()).toEqual({ automatic: true, channel: 'latest', lastCheckedAt: null });
    expect(store.change({ automatic: false })).toEqual({
      automatic: false,
      channel: 'latest',
      lastCheckedAt: null,
    });
    const aside = readdirSync(dataDir).find((name) =>
      name.startsWith(`${UPDATE_SETTINGS_FILE}.unreadable-`),
    )!;
    expect(readFileSync(join(dataDir, aside, 'note.txt'), 'utf8')).toBe('keep me');
    expect(lines.lines[0]).toMatch(
      new RegExp(
        `WARN \\[t:update-settings\\] The update settings could not be read; using the defaults\\. \\{"file":"${settingsFile()}"\\}$`,
      ),
    );
    store.close();
  });

  it('a file that cannot be moved aside makes the change fail, naming the file; nothing is lost', () => {
    const lines = memorySink();
    writeFileSync(settingsFile(), 'not json');
    // Where the unreadable file would go, a folder is in the way (the time is fixed to find it).
    const now = vi.spyOn(Date, 'now').mockReturnValue(12345);
    mkdirSync(`${settingsFile()}.unreadable-12345`);
    writeFileSync(join(`${settingsFile()}.unreadable-12345`, 'x'), 'x');
    const store = new UpdateSettingsStore(dataDir, { logger: createLogger('t', lines) });
    try {
      let failure: AppFailure | null = null;
      try {
        store.change({ automatic: false });
      } catch (thrown) {
        failure = thrown as AppFailure;
      }
      expect(failure?.error.kind).toBe('internal');
      expect(failure?.error.message).toBe(
        `The update settings could not be saved to ${settingsFile()} (EISDIR). Check that the disk has space and the folder is writable, then try again.`,
      );
      expect(readFileSync(settingsFile(), 'utf8')).toBe('not json');
      expect(lines.lines.at(-1)).toMatch(
        /ERROR \[t:update-settings\] Saving the update settings failed\. \{"code":"EISDIR"\}$/,
      );
    } finally {
      now.mockRestore();
      store.close();
    }
  });

  it('an unreadable file is moved aside at the next change, never lost; until then the defaults hold', () => {
    const lines = memorySink();
    const store = new UpdateSettingsStore(dataDir, { logger: createLogger('t', lines) });
    for (const broken of [
      '{"version":1,"automatic":"yes","channel":"latest","lastCheckedAt":null}',
      'not json',
    ]) {
      writeFileSync(settingsFile(), broken);
      expect(store.read()).toEqual({ automatic: true, channel: 'latest', lastCheckedAt: null });
      store.change({ channel: 'beta' });
      const aside = readdirSync(dataDir).filter((name) =>
        name.startsWith(`${UPDATE_SETTINGS_FILE}.unreadable-`),
      );
      expect(aside.map((name) => readFileSync(join(dataDir, name), 'utf8'))).toContain(broken);
      expect(onDisk()).toEqual({ version: 1, automatic: true, channel: 'beta', lastCheckedAt: null });
    }
    expect(lines.lines.join('\n')).toMatch(/could not be read; using the defaults/);
    store.close();
  });

  it('a change that cannot be made is an internal error naming the file; the old file stays', () => {
    const store = new UpdateSettingsStore(dataDir);
    store.change({ automatic: false });
    const before = readFileSync(settingsFile(), 'utf8');
    // A data dir under a regular file cannot be made (ENOTDIR), whoever runs the test.
    const blocker = join(dataDir, 'blocker');
    writeFileSync(blocker, '');
    const lines = memorySink();
    const blocked = new UpdateSettingsStore(join(blocker, 'data'), { logger: createLogger('t', lines) });
    let failure: AppFailure | null = null;
    try {
      blocked.change({ automatic: true });
    } catch (thrown) {
      failure = thrown as AppFailure;
    }
    expect(failure).toBeInstanceOf(AppFailure);
    expect(failure?.error.kind).toBe('internal');
    expect(failure?.error.message).toBe(
      `The update settings could not be saved to ${join(blocker, 'data', UPDATE_SETTINGS_FILE)} (ENOTDIR). Check that the disk has space and the folder is writable, then try again.`,
    );
    expect(readFileSync(settingsFile(), 'utf8')).toBe(before);
    expect(lines.lines).toEqual([
      expect.stringMatching(
        /ERROR \[t:update-settings\] Saving the update settings failed\. \{"code":"ENOTDIR"\}$/,
      ),
    ]);
    store.close();
    blocked.close();
  });
});

describe('across processes', () => {
  it('a change waits while another process holds the lock, and gives up with "busy", changing nothing', async () => {
    const store = new UpdateSettingsStore(dataDir, { lockWaitMs: 300 });
    store.change({ channel: 'beta' });
    const holder = spawn(process.execPath, [
      '--import',
      'tsx',
      join(import.meta.dirname, '../fixtures/sqliteLockHolder.ts'),
      join(dataDir, UPDATE_SETTINGS_LOCK_FILE),
      'IMMEDIATE',
      '1500',
    ]);
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const started = Date.now();
    let failure: AppFailure | null = null;
    try {
      store.change({ automatic: false });
    } catch (thrown) {
      failure = thrown as AppFailure;
    }
    expect(failure?.error.kind).toBe('busy');
    expect(failure?.error.message).toMatch(/within 1 second\. Nothing was changed/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(onDisk()).toMatchObject({ automatic: true, channel: 'beta' });
    // A longer wait outlasts the holder (it lets go after 1.5 s): the change is made then.
    const patient = new UpdateSettingsStore(dataDir, { lockWaitMs: 10_000 });
    expect(patient.change({ automatic: false })).toMatchObject({ automatic: false, channel: 'beta' });
    await new Promise((resolve) => holder.once('close', resolve));
    store.close();
    patient.close();
  });

  it('two processes changing different fields at once lose neither change', async () => {
    const results = await Promise.all([
      runChild('updateSettingsChild.ts', [dataDir, 'automatic', '60']),
      runChild('updateSettingsChild.ts', [dataDir, 'channel', '60']),
    ]);
    for (const result of results) expect(result.stdout, result.stderr).toBe('done\n');
    expect(onDisk()).toEqual({ version: 1, automatic: false, channel: 'beta', lastCheckedAt: null });
  });
});

describe('the staging id', () => {
  it('is made once, as a bare UUID electron-updater can read, 0600, and kept', () => {
    const store = new UpdateSettingsStore(dataDir);
    const id = store.ensureStagingId();
    expect(id).toMatch(UUID_TEXT);
    const file = join(dataDir, STAGING_ID_FILE);
    expect(readFileSync(file, 'utf8')).toBe(id);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(store.ensureStagingId()).toBe(id);
    expect(new UpdateSettingsStore(dataDir).ensureStagingId()).toBe(id);
    store.close();
  });

  it('replaces one that is not a UUID', () => {
    const file = join(dataDir, STAGING_ID_FILE);
    writeFileSync(file, 'hello\n');
    const store = new UpdateSettingsStore(dataDir);
    const id = store.ensureStagingId();
    expect(id).toMatch(UUID_TEXT);
    expect(readFileSync(file, 'utf8')).toBe(id);
    // With anything before or after it, it is not one either (electron-updater checks it whole).
    for (const text of [`${id}\n`, `x${id}`]) {
      writeFileSync(file, text);
      const made = store.ensureStagingId();
      expect(made, JSON.stringify(text)).toMatch(UUID_TEXT);
      expect(made).not.toBe(id);
      expect(readFileSync(file, 'utf8')).toBe(made);
    }
    store.close();
  });

  it('replaces one it cannot read, and says so when it cannot write one', () => {
    const file = join(dataDir, STAGING_ID_FILE);
    mkdirSync(file);
    writeFileSync(join(file, 'x'), 'x');
    const store = new UpdateSettingsStore(dataDir);
    let failure: AppFailure | null = null;
    try {
      store.ensureStagingId();
    } catch (thrown) {
      failure = thrown as AppFailure;
    }
    expect(failure?.error.kind).toBe('internal');
    expect(existsSync(join(file, 'x'))).toBe(true);
    rmSync(file, { recursive: true });
    writeFileSync(file, '');
    expect(store.ensureStagingId()).toMatch(UUID_TEXT);
    store.close();
  });
});
