/**
 * The cache's connection to its file (cache/cacheConnection.ts, issue 30), on real files: what a
 * transaction cut short by damage reports and leaves, a write that fails for another reason, a
 * handle that must follow another's new file before it writes, the file's own id in the change
 * log's entries, and a full disk told as such.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppFailure, appError } from '../../shared/errors';
import { CacheConnection, cacheResetFailure, isCacheReset } from '../../electron/core/cache/cacheConnection';
import { CACHE_ID_META } from '../../electron/core/cache/changeOutbox';
import { LAST_FULL_SYNC_META, MIGRATIONS, ReportCache } from '../../electron/core/cache/reportCache';
import type { SetAsideEvent } from '../../electron/core/guardedDatabase';
import { LocalStore } from '../../electron/core/local/localStore';
import { createLogger, memorySink, silentLogger } from '../../electron/core/log';
import { overwriteMiddle } from '../helpers/damage';
import { failureOf } from '../helpers/failures';
import { generateReports } from '../fixtures/generatedReports';
import { onTmpfs } from '../helpers/tmpfs';

let dir: string;
let file: string;
const open: { close(): void }[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-connection-'));
  file = join(dir, 'cache.sqlite');
});
afterEach(() => {
  for (const item of open.splice(0).reverse()) item.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = '2026-11-01T00:00:00.000Z';
const T1 = '2026-11-02T00:00:00.000Z';

function cache(options: Parameters<typeof ReportCache.open>[1] = {}): ReportCache {
  const made = ReportCache.open(file, options);
  open.push(made);
  return made;
}

/** What SQLite throws when a statement meets a damaged page. */
function damage(): Error {
  return Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
}

/** The origins local.sqlite recorded its entries under, per report id. */
function origins(): { id: string; source: string }[] {
  const raw = new Database(join(dir, 'local.sqlite'), { readonly: true });
  try {
    return raw
      .prepare("SELECT id, origin || ':' || origin_seq AS source FROM change_log ORDER BY id")
      .all() as {
      id: string;
      source: string;
    }[];
  } finally {
    raw.close();
  }
}

describe('the cache_reset failure', () => {
  it('is an internal failure with reason cache_reset; nothing else is one', () => {
    const failure = cacheResetFailure();
    expect(failure.error).toMatchObject({ kind: 'internal', reason: 'cache_reset' });
    expect(isCacheReset(failure)).toBe(true);
    expect(isCacheReset(new Error('cache_reset'))).toBe(false);
    expect(isCacheReset({ error: { reason: 'cache_reset' } })).toBe(false);
    expect(isCacheReset(new AppFailure(appError('internal')))).toBe(false);
  });
});

describe('damage met inside a transaction', () => {
  it('sets the file aside, counts the reports it held, logs it under the cache file’s name, and starts a new file with its own id', () => {
    const sink = memorySink();
    const events: SetAsideEvent[] = [];
    const first = cache({ logger: createLogger('test', sink), onSetAside: (event) => events.push(event) });
    first.putReports('p', generateReports(5), T0);
    first.setMeta('p', LAST_FULL_SYNC_META, T0);
    first.putReports('p', generateReports(1, 10), T1);
    const oldId = first.getMeta('', CACHE_ID_META);
    let thrown: unknown;
    try {
      first.transaction(() => {
        throw damage();
      });
    } catch (error) {
      thrown = error;
    }
    expect(isCacheReset(thrown)).toBe(true);
    expect(events).toEqual([expect.objectContaining({ during: 'use', lost: 6, code: 'SQLITE_CORRUPT' })]);
    expect(sink.lines.join('\n')).toMatch(/WARN \[test:cache\] The cache file is damaged; keeping it aside/);
    // The new file: queries made for the old one are made again, and its entries carry its own
    // id (the old file's seq 1 is in the log already; the same origin would be ignored).
    const newId = first.getMeta('', CACHE_ID_META);
    expect(newId).toMatch(/^[0-9a-f]{32}$/);
    expect(newId).not.toBe(oldId);
    expect(first.status('p').reportCount).toBe(0);
    first.putReports('p', generateReports(1, 20), T0);
    first.setMeta('p', LAST_FULL_SYNC_META, T0);
    first.putReports('p', generateReports(1, 21), T1);
    expect(first.changes.list('p').map((c) => c.id)).toEqual(['21', '10']);
    expect(origins()).toEqual([
      { id: '10', source: `${oldId}:1` },
      { id: '21', source: `${newId}:1` },
    ]);
  });

  it('a cache opened without a listener survives it too', () => {
    const quiet = cache();
    quiet.putReports('p', generateReports(2), T0);
    expect(() =>
      quiet.transaction(() => {
        throw damage();
      }),
    ).toThrow(/set aside/);
    expect(quiet.status('p').reportCount).toBe(0);
  });
});

describe('the whole-file checks', () => {
  it('integrity_check says ok on a sound file and fails on a damaged one; assertIntact fails a transaction there as damage', () => {
    const first = cache();
    first.putReports('p', generateReports(2000), T0);
    expect(first.integrityCheck()).toBe('ok');
    expect(() => first.transaction(() => first.assertIntact())).not.toThrow();
    first.close();
    open.splice(open.indexOf(first), 1);

    // Pages no statement reads any more, damaged on disk (a bad sector) while nothing has it open.
    overwriteMiddle(file);
    const events: SetAsideEvent[] = [];
    const damaged = cache({ check: false, onSetAside: (event) => events.push(event) });
    // This damage stops the check itself (a page it cannot parse): SQLite's error, not 'ok'.
    expect(() => damaged.integrityCheck()).toThrow(/malformed/);
    let thrown: unknown;
    try {
      damaged.transaction(() => damaged.assertIntact());
    } catch (error) {
      thrown = error;
    }
    expect(isCacheReset(thrown)).toBe(true);
    expect(events).toHaveLength(1);
    // The new file is sound, and empty.
    expect(damaged.integrityCheck()).toBe('ok');
    expect(damaged.status('p').reportCount).toBe(0);
  });
});

describe('the connection itself', () => {
  function connection(local: LocalStore, logger = silentLogger): CacheConnection {
    let renewed = 0;
    const made = new CacheConnection({ file, check: false, logger, local, onRenew: () => renewed++ });
    open.push(made);
    return Object.assign(made, { renewed: () => renewed });
  }

  it('a write that fails for any other reason is not done again', () => {
    const local = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
    open.push(local);
    const conn = connection(local);
    let calls = 0;
    expect(() =>
      conn.againAfterReset(() => {
        calls++;
        throw new Error('not a reset');
      }),
    ).toThrow('not a reset');
    expect(calls).toBe(1);
    let resets = 0;
    expect(
      conn.againAfterReset(() => {
        if (resets++ === 0) throw cacheResetFailure();
        return 'written';
      }),
    ).toBe('written');
    expect(resets).toBe(2);
  });

  it('a plain error in a transaction leaves the file in place and is thrown as it is', () => {
    const local = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
    open.push(local);
    const conn = connection(local);
    const error = new Error('a caller’s own failure');
    expect(() =>
      conn.transaction(() => {
        throw error;
      }),
    ).toThrow(error);
    expect(conn.fileGeneration).toBe(0);
  });

  it('a file that lost its id gets a new one, so its entries are not mistaken for another’s', () => {
    const first = cache();
    first.putReports('p', generateReports(2), T0);
    first.setMeta('p', LAST_FULL_SYNC_META, T0);
    first.close();
    open.length = 0;
    const raw = new Database(file);
    raw.prepare("DELETE FROM meta WHERE scope = '' AND key = ?").run(CACHE_ID_META);
    raw.close();
    const again = cache();
    const id = again.getMeta('', CACHE_ID_META);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    again.putReports('p', generateReports(1, 7), T1);
    expect(origins()).toEqual([{ id: '7', source: `${id}:1` }]);
  });

  it('a log that cannot be written says why in its warning', () => {
    const local = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
    const sink = memorySink();
    const first = cache({ local, logger: createLogger('test', sink) });
    first.putReports('p', generateReports(1), T0);
    first.setMeta('p', LAST_FULL_SYNC_META, T0);
    local.close();
    first.putReports('p', generateReports(1, 3), T1);
    expect(sink.lines.join('\n')).toMatch(/The change log could not be written;.*"code":"[^"]+"/);
  });
});

describe('another process set the file aside', () => {
  it('a handle that read a moment ago still follows the new file before it writes', () => {
    const events: SetAsideEvent[] = [];
    const mine = cache({ onSetAside: (event) => events.push(event) });
    mine.putReports('p', generateReports(3), T0);
    const other = cache();
    // The other handle has just looked (a read), so it would not look again for a second.
    expect(other.status('p').reportCount).toBe(3);
    expect(() =>
      mine.transaction(() => {
        throw damage();
      }),
    ).toThrow();
    expect(events).toHaveLength(1);
    let thrown: unknown;
    try {
      other.transaction(() => other.setMeta('p', 'x', 'y'));
    } catch (error) {
      thrown = error;
    }
    expect(isCacheReset(thrown)).toBe(true);
    other.putReports('p', generateReports(1, 50), T1);
    expect(mine.getReport('p', '50')).not.toBeNull();
  });
});

describe('a read-only folder', () => {
  onTmpfs(
    'an older file (its change log still inside) is read as it is: nothing is moved where nothing can be written',
    2 * 1024 * 1024,
    (disk) => {
      const target = join(disk.dir, 'cache.sqlite');
      const raw = new Database(target);
      for (const sql of MIGRATIONS.slice(0, 5)) raw.exec(sql);
      raw.pragma('user_version = 5');
      raw
        .prepare('INSERT INTO change_log (scope, id, kind, at, fields, seen) VALUES (?, ?, ?, ?, ?, ?)')
        .run('p', '1', 'added', T0, '{}', 0);
      raw.close();
      disk.remount('ro');
      const readOnly = ReportCache.open(target);
      try {
        expect(readOnly.readOnly).toEqual({ folder: disk.dir, code: 'EROFS' });
        expect(readOnly.status('p').reportCount).toBe(0);
      } finally {
        readOnly.close();
      }
    },
  );

  onTmpfs(
    'a full disk fails the write with disk_full naming the data folder, and keeps what was there',
    1024 * 1024,
    (disk) => {
      const target = join(disk.dir, 'cache.sqlite');
      const full = ReportCache.open(target);
      try {
        full.putReports('p', generateReports(20), T0);
        expect(
          failureOf(() => {
            for (let i = 0; i < 50; i++) full.putReports('p', generateReports(200, 1000 + i * 200), T1);
          }),
        ).toMatchObject({
          kind: 'disk_full',
          details: { folder: disk.dir, place: 'data_folder' },
        });
        expect(full.fileGeneration).toBe(0);
        expect(full.getReport('p', '1')).not.toBeNull();
      } finally {
        full.close();
      }
    },
  );
});
