/**
 * A full disk and a read-only folder told as such (electron/core/storageFailure.ts and the
 * gateway's wrapper, storageErrors.ts): which codes are which, the sentences and the details a
 * front end words them from. Real folders for the free space and the write check; the real
 * full disk and read-only mount are in tests/reliability/machineFaults.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContractHandlers } from '../../shared/contract';
import { AppFailure, appError } from '../../shared/errors';
import { createLogger, memorySink } from '../../electron/core/log';
import { onTmpfs } from '../helpers/tmpfs';
import { withStorageErrors } from '../../electron/core/storageErrors';
import {
  freeBytes,
  readOnlyCode,
  storageError,
  storageFailure,
  storageProblem,
  withOfflineReports,
} from '../../electron/core/storageFailure';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-storage-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const coded = (code: string) => Object.assign(new Error(code), { code });

describe('which failures are the disk', () => {
  it.each([
    ['ENOSPC', 'disk_full'],
    ['EDQUOT', 'disk_full'],
    ['SQLITE_FULL', 'disk_full'],
    ['EROFS', 'read_only'],
    ['EACCES', 'read_only'],
    ['EPERM', 'read_only'],
    ['SQLITE_READONLY', 'read_only'],
    ['SQLITE_READONLY_DBMOVED', 'read_only'],
    ['ENOENT', null],
    ['SQLITE_BUSY', null],
    ['SQLITE_CORRUPT', null],
  ])('%s is %s', (code, problem) => {
    expect(storageProblem(coded(code), dir)).toBe(problem);
  });

  it('an I/O error or "cannot open" is the disk only when the disk says so now', () => {
    // A writable folder with space: neither is a storage problem.
    expect(storageProblem(coded('SQLITE_IOERR_WRITE'), dir)).toBeNull();
    expect(storageProblem(coded('SQLITE_CANTOPEN'), dir)).toBeNull();
    expect(storageProblem(new Error('no code'), dir)).toBeNull();
  });

  it('an I/O error is a full disk below 64 KB free, not at 64 KB exactly, nor when the OS does not say', () => {
    const io = coded('SQLITE_IOERR_WRITE');
    expect(storageProblem(io, dir, () => 64 * 1024 - 1)).toBe('disk_full');
    expect(storageProblem(io, dir, () => 64 * 1024)).toBeNull();
    expect(storageProblem(io, dir, () => undefined)).toBeNull();
    expect(storageProblem(coded('SQLITE_CANTOPEN'), dir, () => 0)).toBe('disk_full');
  });

  onTmpfs(
    'on a real read-only mount and a real full disk, the same codes say so (as root too)',
    64 * 1024,
    (disk) => {
      writeFileSync(join(disk.dir, 'filler'), Buffer.alloc(64 * 1024 - 8192));
      // Nearly full: a few KB still free, and an I/O error here is the disk.
      expect(freeBytes(disk.dir)).toBeGreaterThan(0);
      expect(freeBytes(disk.dir)).toBeLessThan(64 * 1024);
      expect(storageProblem(coded('SQLITE_IOERR_WRITE'), disk.dir)).toBe('disk_full');
      expect(storageProblem(coded('SQLITE_BUSY'), disk.dir)).toBeNull();
      expect(() => writeFileSync(join(disk.dir, 'more'), Buffer.alloc(16 * 1024))).toThrow(/ENOSPC/);
      disk.remount('ro');
      expect(readOnlyCode(disk.dir)).toBe('EROFS');
    },
  );

  onTmpfs('"cannot open" in a read-only folder with space is read_only', 256 * 1024, (disk) => {
    disk.remount('ro');
    expect(storageProblem(coded('SQLITE_CANTOPEN'), disk.dir)).toBe('read_only');
    expect(storageProblem(coded('SQLITE_IOERR_WRITE'), disk.dir)).toBe('read_only');
    // Other codes are not the disk, even on a read-only one.
    expect(storageProblem(coded('SQLITE_BUSY'), disk.dir)).toBeNull();
    expect(storageProblem(coded('ENOENT'), disk.dir)).toBeNull();
  });
  it('a folder that does not exist yet is not read-only (it will be made); one that exists and is writable neither', () => {
    expect(readOnlyCode(join(dir, 'not-yet'))).toBeNull();
    expect(readOnlyCode(dir)).toBeNull();
  });

  it('free bytes are what the file system says, and nothing for a place that is not there', () => {
    const free = freeBytes(dir);
    expect(free).toBeGreaterThan(0);
    expect(freeBytes(join(dir, 'missing', 'deeper'))).toBeUndefined();
  });
});

describe('the sentences and the details', () => {
  it('a full data folder: the folder, its free space, the reports still offline', () => {
    const error = storageError('disk_full', 'SQLITE_FULL', {
      folder: dir,
      place: 'data_folder',
      offlineReports: 200,
    });
    expect(error.kind).toBe('disk_full');
    expect(error.message).toMatch(
      new RegExp(
        `^The disk that holds the data folder ${dir} is full \\(.+ free\\)\\. Nothing was lost: 200 reports are available offline; free some space and try again\\.$`,
      ),
    );
    expect(error.details).toMatchObject({
      folder: dir,
      place: 'data_folder',
      code: 'SQLITE_FULL',
      offlineReports: 200,
    });
    expect(error.details?.freeBytes).toBeGreaterThanOrEqual(0);
  });

  it('words the free space in megabytes to one decimal, rounded down, and says when it or the reports are unknown', () => {
    const where = { folder: dir, place: 'data_folder' as const };
    expect(
      storageError('disk_full', 'ENOSPC', { ...where, offlineReports: 3 }, () => 1_299_999).values,
    ).toEqual({
      ...where,
      freeKnown: 'yes',
      freeMegabytes: 1.2,
      offlineKnown: 'yes',
      offlineReports: 3,
    });
    expect(storageError('disk_full', 'ENOSPC', where, () => undefined).values).toEqual({
      ...where,
      freeKnown: 'no',
      freeMegabytes: 0,
      offlineKnown: 'no',
      offlineReports: 0,
    });
  });

  it('without the reports offline known, the sentence goes without them', () => {
    expect(
      storageError('disk_full', 'ENOSPC', { folder: join(dir, 'gone'), place: 'data_folder' }).message,
    ).toBe(
      `The disk that holds the data folder ${join(dir, 'gone')} is full. Nothing was lost; free some space and try again.`,
    );
  });

  it('a full export folder, one report, no free space known', () => {
    const error = storageError('disk_full', 'ENOSPC', {
      folder: join(dir, 'gone'),
      place: 'export',
      offlineReports: 1,
    });
    expect(error.message).toBe(
      `The disk that holds ${join(dir, 'gone')} is full. Nothing was lost: 1 report is available offline; free some space and try again.`,
    );
    expect(error.details).not.toHaveProperty('freeBytes');
  });

  it('a read-only data folder says reading still works; an export folder says to choose another', () => {
    expect(storageError('read_only', 'EROFS', { folder: dir, place: 'data_folder' }).message).toBe(
      `The data folder ${dir} cannot be written to (EROFS), so nothing was saved; reading still works. Make the folder writable, then try again.`,
    );
    expect(storageError('read_only', 'EACCES', { folder: '/media/x', place: 'export' })).toEqual({
      kind: 'read_only',
      code: 'storage.read_only',
      values: { place: 'export', folder: '/media/x', code: 'EACCES' },
      message:
        '/media/x cannot be written to (EACCES), so nothing was saved. Make the folder writable or choose another, then try again.',
      details: { folder: '/media/x', place: 'export', code: 'EACCES', offlineReports: undefined },
    });
  });

  it('turns a raw failure into its AppFailure, and leaves an AppFailure or another failure alone', () => {
    const failure = storageFailure(coded('ENOSPC'), { folder: dir, place: 'data_folder' });
    expect(failure).toBeInstanceOf(AppFailure);
    expect(failure?.error.kind).toBe('disk_full');
    expect(
      storageFailure(new AppFailure(appError('internal')), { folder: dir, place: 'data_folder' }),
    ).toBeNull();
    expect(storageFailure(coded('ECONNRESET'), { folder: dir, place: 'data_folder' })).toBeNull();
  });

  it('adds the reports still offline to a data folder failure that does not say yet, once', () => {
    const bare = storageFailure(coded('SQLITE_FULL'), { folder: dir, place: 'data_folder' })!;
    const told = withOfflineReports(bare, () => 7) as AppFailure;
    expect(told.error.details).toMatchObject({ offlineReports: 7, code: 'SQLITE_FULL', folder: dir });
    expect(told.error.message).toContain('Nothing was lost: 7 reports are available offline');
    // Already said, unknown, or failing to count: left as it is.
    expect(withOfflineReports(told, () => 9)).toBe(told);
    expect(withOfflineReports(bare, () => undefined)).toBe(bare);
    expect(
      withOfflineReports(bare, () => {
        throw new Error('no cache');
      }),
    ).toBe(bare);
    // Not the data folder, or not the disk: as it is.
    const exportFull = storageFailure(coded('ENOSPC'), { folder: dir, place: 'export' })!;
    expect(withOfflineReports(exportFull, () => 3)).toBe(exportFull);
    const other = new AppFailure(appError('network'));
    expect(withOfflineReports(other, () => 3)).toBe(other);
    const internal = new AppFailure(
      appError('internal', {}, { details: { folder: dir, place: 'data_folder' } }),
    );
    expect(withOfflineReports(internal, () => 3)).toBe(internal);
    const bareKind = new AppFailure(appError('disk_full'));
    expect(withOfflineReports(bareKind, () => 3)).toBe(bareKind);
    const noFolder = new AppFailure(appError('disk_full', {}, { details: { place: 'data_folder' } }));
    expect(withOfflineReports(noFolder, () => 3)).toBe(noFolder);
    expect(withOfflineReports('text', () => 3)).toBe('text');
  });

  it('a read-only data folder gets the reports still offline too', () => {
    const bare = storageFailure(coded('EROFS'), { folder: dir, place: 'data_folder' })!;
    const told = withOfflineReports(bare, () => 4) as AppFailure;
    expect(told.error).toMatchObject({ kind: 'read_only', details: { offlineReports: 4, code: 'EROFS' } });
  });
});

describe('every channel tells the disk as such (storageErrors.ts)', () => {
  it('a raw disk failure becomes disk_full with the reports offline, logged with its code; others pass untouched', async () => {
    const sink = memorySink();
    const failing = (thrown: unknown) => async () => {
      throw thrown;
    };
    const toldAlready = new AppFailure(
      appError('disk_full', {}, { details: { folder: dir, place: 'export', code: 'ENOSPC' } }),
    );
    const bare = new AppFailure(appError('read_only'));
    const handlers = withStorageErrors(
      {
        'cache:sync': failing(coded('SQLITE_FULL')),
        'cache:clear': failing(coded('EROFS')),
        'reports:list': failing(new AppFailure(appError('network'))),
        'export:save': failing(toldAlready),
        'offline:set': failing(bare),
        'cache:status': async () => ({ reportCount: 3 }),
      } as unknown as ContractHandlers,
      { folder: dir, offlineReports: () => 42, logger: createLogger('test', sink) },
    );
    const full = await handlers['cache:sync'](undefined).catch((e: unknown) => e);
    expect((full as AppFailure).error).toMatchObject({
      kind: 'disk_full',
      details: { offlineReports: 42, folder: dir },
    });
    const readOnly = await handlers['cache:clear'](undefined).catch((e: unknown) => e);
    expect((readOnly as AppFailure).error).toMatchObject({ kind: 'read_only', details: { code: 'EROFS' } });
    const network = await handlers['reports:list']({}).catch((e: unknown) => e);
    expect((network as AppFailure).error.kind).toBe('network');
    expect(await handlers['cache:status'](undefined)).toEqual({ reportCount: 3 });
    // Told already (an export's full disk), or told without details: passed on as it is, logged.
    expect(
      await handlers['export:save']({ fileName: 'a.csv', format: 'csv', content: '' }).catch(
        (e: unknown) => e,
      ),
    ).toBe(toldAlready);
    expect(await handlers['offline:set']({ profileId: 'p' }).catch((e: unknown) => e)).toBe(bare);
    const log = sink.lines.join('\n');
    expect(log).toMatch(
      /WARN \[test:storage\] A request failed because of the disk\. .*"channel":"cache:sync".*"kind":"disk_full".*"code":"SQLITE_FULL"/,
    );
    expect(log).toMatch(/"channel":"cache:clear".*"kind":"read_only".*"code":"EROFS"/);
    expect(log).not.toContain('reports:list');
    expect(log).toMatch(/"channel":"export:save","kind":"disk_full","code":"ENOSPC","folder":"[^"]+"/);
    expect(log).toMatch(/"channel":"offline:set","kind":"read_only","code":"unknown error"\}/);
  });
});
