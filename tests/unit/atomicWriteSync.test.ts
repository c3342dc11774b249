/**
 * What makes an atomic write durable, seen through the file system calls it makes: the
 * temporary file's own fd synced before the rename, the folder's fd synced after it, and on
 * Windows (named, as it cannot run here) neither the chmod nor the folder's sync. A power cut
 * is the only thing that would show a skipped fsync, so the calls are recorded instead
 * (../helpers/recordedFs.ts): the real node:fs does every one of them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syncDirectory, writeFileAtomic } from '../../electron/core/atomicWrite';
import { fsCalls as calls } from '../helpers/recordedFs';
import { skipWhen } from '../helpers/skip';

vi.mock('node:fs', async (importOriginal) =>
  (await import('../helpers/recordedFs')).recordedFs(await importOriginal()),
);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-atomic-sync-'));
  calls.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The calls with the temporary file's name (random) replaced by `<tmp>`. */
function seen(): string[] {
  return calls.map((call) =>
    call.replace(/\S*\/\.state\.json\.[^ ]+\.tmp/g, '<tmp>').replaceAll(dir, '<dir>'),
  );
}

describe('writeFileAtomic, durable', () => {
  it.skipIf(
    skipWhen(
      process.platform === 'win32',
      'Windows syncs neither folders nor file modes (the code skips both there)',
    ),
  )('syncs the file before its rename and the folder after it, and makes the file 0600', () => {
    const file = join(dir, 'state.json');
    writeFileAtomic(file, 'content');
    expect(readFileSync(file, 'utf8')).toBe('content');
    expect(seen()).toEqual([
      'open <tmp>',
      'fsync <tmp>',
      'chmod <tmp> 600',
      'rename <tmp> <dir>/state.json',
      'open <dir>',
      'fsync <dir>',
    ]);
  });

  it('on Windows neither narrows the mode again nor syncs the folder (neither is possible there)', () => {
    const file = join(dir, 'state.json');
    writeFileAtomic(file, 'content', 'win32');
    expect(readFileSync(file, 'utf8')).toBe('content');
    expect(seen()).toEqual(['open <tmp>', 'fsync <tmp>', 'rename <tmp> <dir>/state.json']);
  });

  it('on every other system the same as on Linux', () => {
    writeFileAtomic(join(dir, 'state.json'), 'content', 'darwin');
    expect(seen()).toContain('chmod <tmp> 600');
    expect(seen().slice(-2)).toEqual(['open <dir>', 'fsync <dir>']);
  });
});

describe('syncDirectory', () => {
  it.skipIf(
    skipWhen(
      process.platform === 'win32',
      'Windows syncs neither folders nor file modes (the code skips both there)',
    ),
  )('opens the folder and syncs that fd', () => {
    syncDirectory(dir);
    expect(seen()).toEqual(['open <dir>', 'fsync <dir>']);
  });

  it('on Windows does nothing', () => {
    syncDirectory(dir, 'win32');
    expect(calls).toEqual([]);
  });

  it('a folder that cannot be opened is synced by no one, and is no error', () => {
    syncDirectory(join(dir, 'missing'), 'linux');
    expect(calls).toEqual([]);
  });
});
