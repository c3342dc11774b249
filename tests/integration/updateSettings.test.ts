/**
 * The app-wide update settings file and electron-updater's staging id in the data dir: atomic
 * 0600 writes, read-modify-write under update-settings.lock, held by real processes here.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppFailure } from '../../shared/errors';
import { createLogger, memorySink } from '../../electron/core/log';
import {
  STAGING_ID_FILE,
  UPDATE_SETTINGS_FILE,
  UPDATE_SETTINGS_LOCK_FILE,
  UpdateSettingsStore,
} from '../../electron/core/updates/updateSettings';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'reportdesk-update-settings-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const settingsFile = () => join(dataDir, UPDATE_SETTINGS_FILE);
const onDisk = () => JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;

function runChild(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      '--import',
      'tsx',
      join(import.meta.dirname, '../fixtures', script),
      ...args,
    ]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
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
    one.close();
    two.close();
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
    const blocked = new UpdateSettingsStore(join(blocker, 'data'));
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
    expect(failure?.error.message).toMatch(/within 1 seconds\. Nothing was changed/);
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
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
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
    expect(id).not.toBe('hello');
    expect(readFileSync(file, 'utf8')).toBe(id);
    writeFileSync(file, `${id}\n`);
    expect(store.ensureStagingId()).not.toBe(id);
    expect(existsSync(file)).toBe(true);
    store.close();
  });
});
