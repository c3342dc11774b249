/**
 * local.sqlite's daily backup is durable before it takes the old one's place: the temporary
 * copy's fd synced, then the rename, then the folder synced — read from the file system calls
 * (../helpers/recordedFs.ts), as only a power cut would show one skipped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { LocalStore } from '../../electron/core/local/localStore';
import { silentLogger } from '../../electron/core/log';
import { fsCalls } from '../helpers/recordedFs';
import { skipWhen } from '../helpers/skip';

vi.mock('node:fs', async (importOriginal) =>
  (await import('../helpers/recordedFs')).recordedFs(await importOriginal()),
);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-local-sync-'));
  fsCalls.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it.skipIf(
  skipWhen(
    process.platform === 'win32',
    'Windows syncs neither folders nor file modes (the code skips both there)',
  ),
)('the backup is synced before its rename, and its folder after', () => {
  const store = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
  store.close();
  const backupCalls = fsCalls
    .map((call) =>
      call.replace(/\S*\/\.local\.sqlite\.backup\.[^ ]+\.tmp/g, '<tmp>').replaceAll(dir, '<dir>'),
    )
    .filter((call) => call.includes('<tmp>') || call.includes('backup') || call.endsWith(' <dir>'));
  expect(backupCalls).toEqual([
    'chmod <tmp> 600',
    'open <tmp>',
    'fsync <tmp>',
    'rename <tmp> <dir>/local.sqlite.backup',
    'open <dir>',
    'fsync <dir>',
  ]);
});
