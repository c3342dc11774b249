/**
 * The change log apart from the offline copy (issue 30): a write's entries wait in the cache's
 * outbox (cache/changeOutbox.ts) and move to local.sqlite after the commit, once each, whatever
 * step a kill stopped; a change log an older version kept in the cache is moved out; and the
 * cache's connection (cache/cacheConnection.ts) sets a damaged file aside mid-use, answers
 * reads again, follows another handle's new file, and refuses writes in a read-only folder.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeListQuery } from '../../shared/model';
import { AppFailure } from '../../shared/errors';
import { CACHE_ID_META, moveLegacyChangeLog } from '../../electron/core/cache/changeOutbox';
import { armCrashPoints, CRASH_AT_ENV } from '../../electron/core/crashPoints';
import {
  isCacheReset,
  LAST_FULL_SYNC_META,
  MIGRATIONS,
  ReportCache,
} from '../../electron/core/cache/reportCache';
import type { SetAsideEvent } from '../../electron/core/guardedDatabase';
import { LocalStore } from '../../electron/core/local/localStore';
import { createLogger, memorySink, silentLogger } from '../../electron/core/log';
import { failureOf } from '../helpers/failures';
import { generateReports } from '../fixtures/generatedReports';
import { overwriteMiddle } from '../helpers/damage';
import { onTmpfs } from '../helpers/tmpfs';
import { cacheDatabase } from '../helpers/cacheDatabase';

let dir: string;
let file: string;
const caches: ReportCache[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-outbox-'));
  file = join(dir, 'cache.sqlite');
});
afterEach(() => {
  for (const cache of caches.splice(0)) cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = '2026-11-01T00:00:00.000Z';
const T1 = '2026-11-02T00:00:00.000Z';

function open(options: Parameters<typeof ReportCache.open>[1] = {}): ReportCache {
  const cache = ReportCache.open(file, options);
  caches.push(cache);
  return cache;
}

const outboxRows = (cache: ReportCache) =>
  cacheDatabase(cache).prepare('SELECT count(*) AS n FROM change_outbox').get() as { n: number };

/** A cache whose scope 'p' had its first full sync: its changes are logged from now on. */
function baselined(): ReportCache {
  const cache = open();
  cache.putReports('p', generateReports(3), T0);
  cache.setMeta('p', LAST_FULL_SYNC_META, T0);
  return cache;
}

describe('the outbox', () => {
  it('moves a write’s entries to the change log right after the commit, and keeps none', () => {
    const cache = baselined();
    cache.putReports('p', [{ ...generateReports(1)[0], result: 'bad' }, ...generateReports(1, 9)], T1);
    expect(cache.changes.list('p').map((c) => `${c.kind}:${c.id}`)).toEqual(['added:9', 'changed:1']);
    expect(outboxRows(cache)).toEqual({ n: 0 });
  });

  it('inside a longer transaction, the entries move once it commits, and not at all when it rolls back', () => {
    const cache = baselined();
    cache.transaction(() => {
      cache.putReports('p', generateReports(1, 20), T1);
      expect(cache.changes.list('p')).toEqual([]);
    });
    expect(cache.changes.list('p').map((c) => c.id)).toEqual(['20']);
    expect(() =>
      cache.transaction(() => {
        cache.putReports('p', generateReports(1, 21), T1);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(cache.changes.list('p').map((c) => c.id)).toEqual(['20']);
    expect(outboxRows(cache)).toEqual({ n: 0 });
  });

  it('entries left by a kill after the cache committed move at the next open, once', () => {
    const cache = baselined();
    const id = cache.getMeta('', CACHE_ID_META);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    cache.close();
    caches.length = 0;
    // As a kill right after the rows' commit leaves it: the entry in the outbox only.
    const raw = new Database(file);
    raw
      .prepare('INSERT INTO change_outbox (scope, id, kind, at, fields) VALUES (?, ?, ?, ?, ?)')
      .run('p', '5', 'added', T1, '{}');
    raw.close();
    const reopened = open();
    expect(reopened.changes.list('p').map((c) => c.id)).toEqual(['5']);
    expect(outboxRows(reopened)).toEqual({ n: 0 });
  });

  it('entries the change log has already (a kill before the outbox was emptied) are not logged twice', () => {
    const cache = baselined();
    const source = cache.getMeta('', CACHE_ID_META)!;
    cache.close();
    caches.length = 0;
    const raw = new Database(file);
    const { lastInsertRowid } = raw
      .prepare('INSERT INTO change_outbox (scope, id, kind, at, fields) VALUES (?, ?, ?, ?, ?)')
      .run('p', '6', 'added', T1, '{}');
    raw.close();
    const local = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
    local.transaction(() =>
      local.changes.record('p', [
        { id: '6', kind: 'added', at: T1, fields: {}, origin: { source, seq: Number(lastInsertRowid) } },
      ]),
    );
    const reopened = open({ local });
    expect(reopened.changes.list('p').map((c) => c.id)).toEqual(['6']);
    reopened.close();
    caches.length = 0;
    local.close();
  });

  it('when the change log cannot be written, its entries wait in the outbox for the next write', () => {
    const local = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
    const sink = memorySink();
    const cache = open({ local, logger: createLogger('test', sink) });
    cache.putReports('p', generateReports(2), T0);
    cache.setMeta('p', LAST_FULL_SYNC_META, T0);
    local.close();
    cache.putReports('p', generateReports(1, 30), T1);
    expect(outboxRows(cache)).toEqual({ n: 1 });
    expect(sink.lines.join('\n')).toMatch(
      /WARN \[test:cache\] The change log could not be written; its entries wait in the cache for the next write\./,
    );
    cache.close();
    caches.length = 0;
    const again = open();
    expect(again.changes.list('p').map((c) => c.id)).toEqual(['30']);
  });

  it('the move is bracketed by its two crash points, and only when entries wait', () => {
    const cache = baselined();
    const hits: string[] = [];
    for (const point of ['changes.outbox-committed', 'changes.log-committed']) {
      armCrashPoints({ [CRASH_AT_ENV]: point }, () => hits.push(point));
      try {
        cache.transaction(() => cache.setMeta('p', 'x', point));
        expect(hits).toEqual([]);
        cache.putReports('p', generateReports(1, point.length), T1);
      } finally {
        armCrashPoints({});
      }
      expect(hits).toEqual([point]);
      hits.length = 0;
    }
  });

  it('entries waiting when a copy is cleared reach the log (cache clear keeps it); forgetting a scope or everything clears them', () => {
    const cache = baselined();
    const db = cacheDatabase(cache);
    // As kills right after the rows' commits leave them: entries for three scopes wait.
    const wait = (scope: string) =>
      db
        .prepare('INSERT INTO change_outbox (scope, id, kind, at, fields) VALUES (?, ?, ?, ?, ?)')
        .run(scope, '60', 'added', T1, '{}');
    for (const scope of ['p', 'q', 'r']) wait(scope);
    const logged = () => ['p', 'q', 'r'].map((scope) => cache.changes.list(scope).length);
    cache.clearCopy('p');
    expect(logged()).toEqual([1, 1, 1]);
    cache.clearScope('q');
    expect(logged()).toEqual([1, 0, 1]);
    wait('q');
    cache.clearAll();
    expect(logged()).toEqual([0, 0, 0]);
    expect(outboxRows(cache)).toEqual({ n: 0 });
  });

  it('clearing is a crash point, inside its transaction', () => {
    const cache = baselined();
    let kills = 0;
    armCrashPoints({ [CRASH_AT_ENV]: 'cache.clearing' }, () => kills++);
    try {
      cache.clearCopy('p');
    } finally {
      armCrashPoints({});
    }
    expect(kills).toBe(1);
  });

  it('cache clear keeps the change log and seen marks; forgetting a scope clears them', () => {
    const cache = baselined();
    cache.putReports('p', generateReports(1, 40), T1);
    cache.local.transaction(() => cache.changes.setSince('p', T0));
    cache.clearCopy('p');
    expect(cache.status('p').reportCount).toBe(0);
    expect(cache.changes.list('p').map((c) => c.id)).toEqual(['40']);
    expect(cache.changes.since('p')).toBe(T0);
    // The file's own id is no scope, and stays through a clear of everything; a scope only the
    // change log still has is one too, in order.
    const id = cache.getMeta('', CACHE_ID_META);
    cache.local.transaction(() => cache.changes.setSince('a', T0));
    cache.putReports('z', generateReports(1), T0);
    expect(cache.scopes()).toEqual(['a', 'p', 'z']);
    cache.clearAll();
    expect(cache.getMeta('', CACHE_ID_META)).toBe(id);
    expect(cache.scopes()).toEqual([]);
    cache.putReports('q', generateReports(1), T0);
    cache.clearScope('q');
    expect(cache.scopes()).toEqual([]);
  });
});

describe('a change log an older version kept in the cache', () => {
  function olderFile(): void {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    const raw = new Database(file);
    for (const sql of MIGRATIONS.slice(0, 5)) raw.exec(sql);
    raw.pragma('user_version = 5');
    const insert = raw.prepare(
      'INSERT INTO change_log (scope, id, kind, at, fields, seen) VALUES (?, ?, ?, ?, ?, ?)',
    );
    insert.run('p', '1', 'added', T0, '{}', 1);
    insert.run('p', '2', 'changed', T1, '{"result":{"before":"good","after":"bad"}}', 0);
    insert.run('q', '3', 'removed', T1, '{}', 0);
    raw
      .prepare(
        "INSERT INTO meta (scope, key, value) VALUES ('p', 'changes_since', ?), ('q', 'changes_since', ?)",
      )
      .run(T0, T1);
    raw.close();
  }

  it('is moved out whole, seen marks and "changes since" included, and dropped from the cache', () => {
    olderFile();
    const cache = open();
    expect(cache.changes.list('p').map((c) => [c.id, c.kind, c.seen, c.fields])).toEqual([
      ['2', 'changed', false, { result: { before: 'good', after: 'bad' } }],
      ['1', 'added', true, {}],
    ]);
    expect(cache.changes.list('q').map((c) => c.id)).toEqual(['3']);
    expect(cache.changes.since('p')).toBe(T0);
    expect(cache.getMeta('p', 'changes_since')).toBeNull();
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'change_log'").get()).toBeUndefined();
      expect(raw.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    } finally {
      raw.close();
    }
  });

  it('moved again after a kill between its two steps, nothing is there twice; a mark set since is kept', () => {
    olderFile();
    const raw = new Database(file);
    const copy = raw.prepare('SELECT scope, id, kind, at, fields, seen FROM change_log ORDER BY seq').all();
    const local = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
    try {
      expect(moveLegacyChangeLog(raw, local, 'the-file-id')).toBe(3);
      local.transaction(() => local.changes.setSince('q', '2026-11-05T00:00:00.000Z'));
      // Killed before the drop: the table is still there, as it was.
      raw.exec(
        'CREATE TABLE change_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT, id TEXT, kind TEXT, at TEXT, fields TEXT, seen INTEGER)',
      );
      const insert = raw.prepare(
        'INSERT INTO change_log (scope, id, kind, at, fields, seen) VALUES (@scope, @id, @kind, @at, @fields, @seen)',
      );
      for (const row of copy) insert.run(row);
      raw.prepare("INSERT INTO meta (scope, key, value) VALUES ('q', 'changes_since', ?)").run(T1);
      expect(moveLegacyChangeLog(raw, local, 'the-file-id')).toBe(3);
      expect(local.changes.list('p').map((c) => c.id)).toEqual(['2', '1']);
      expect(local.changes.list('q').map((c) => c.id)).toEqual(['3']);
      expect(local.changes.since('q')).toBe('2026-11-05T00:00:00.000Z');
      // Gone now: a third move finds nothing.
      expect(moveLegacyChangeLog(raw, local, 'the-file-id')).toBe(0);
    } finally {
      raw.close();
      local.close();
    }
  });
});

describe('moving an older change log, directly', () => {
  function legacyFile(name: string, columns = 'seen INTEGER'): Database.Database {
    const raw = new Database(join(dir, name));
    raw.exec(
      `CREATE TABLE meta (scope TEXT, key TEXT, value TEXT); CREATE TABLE change_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT, id TEXT, kind TEXT, at TEXT, fields TEXT, ${columns})`,
    );
    return raw;
  }

  it('two files’ logs moved into one local.sqlite are both kept (each named by its own file)', () => {
    const local = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
    try {
      for (const [name, id] of [
        ['a.sqlite', '1'],
        ['b.sqlite', '2'],
      ]) {
        const raw = legacyFile(name);
        raw
          .prepare(
            "INSERT INTO change_log (scope, id, kind, at, fields, seen) VALUES ('p', ?, 'added', ?, '{}', 0)",
          )
          .run(id, T0);
        expect(moveLegacyChangeLog(raw, local, name)).toBe(1);
        raw.close();
      }
      expect(
        local.changes
          .list('p')
          .map((c) => c.id)
          .sort(),
      ).toEqual(['1', '2']);
    } finally {
      local.close();
    }
  });

  it('a log it cannot read for another reason is an error, not "moved already"', () => {
    const local = LocalStore.open(join(dir, 'local.sqlite'), { logger: silentLogger });
    const raw = legacyFile('odd.sqlite', 'other INTEGER');
    try {
      expect(() => moveLegacyChangeLog(raw, local, 'odd')).toThrow(/no such column: seen/);
    } finally {
      raw.close();
      local.close();
    }
  });
});

describe('a damaged cache while in use', () => {
  /** A copy of 2,000 reports whose middle a disk damaged after it was closed cleanly: opened without a check, as then. */
  function damagedCache(events: SetAsideEvent[]) {
    const first = ReportCache.open(file);
    first.putReports('p', generateReports(2000), T0);
    first.close();
    overwriteMiddle(file, 16_384);
    return open({ onSetAside: (event) => events.push(event) });
  }

  it('a read is set aside and answered again from the new, empty copy; told once with what was lost', () => {
    const events: SetAsideEvent[] = [];
    const cache = damagedCache(events);
    // Reading every row meets the damaged pages.
    expect(cache.unseenIds('p', 'no-such-sync')).toEqual([]);
    expect(cache.query('p', normalizeListQuery({ per_page: 100 })).page.reports).toEqual([]);
    expect(cache.fileGeneration).toBe(1);
    expect(events).toEqual([expect.objectContaining({ during: 'use', file })]);
    expect(cache.status('p').reportCount).toBe(0);
  });

  it('a transaction cut short fails with cache_reset; a write of fetched reports is written again into the new copy', () => {
    const events: SetAsideEvent[] = [];
    const cache = damagedCache(events);
    let thrown: unknown;
    try {
      cache.transaction(() => cache.pruneUnseen('p', 'no-such-sync'));
    } catch (error) {
      thrown = error;
    }
    expect(isCacheReset(thrown)).toBe(true);
    expect((thrown as AppFailure).error.message).toMatch(
      /^The offline copy was damaged, so it was set aside/,
    );
    expect(events).toHaveLength(1);
    const counts = cache.putReports('p', generateReports(5), T1);
    expect(counts.added).toBe(5);
    expect(cache.status('p').reportCount).toBe(5);
  });

  it('another handle on the same file follows the new copy before it writes', () => {
    const events: SetAsideEvent[] = [];
    const cache = damagedCache(events);
    const other = open();
    expect(() => cache.transaction(() => cache.pruneUnseen('p', 'x'))).toThrow();
    other.putReports('p', generateReports(1, 99), T1);
    expect(cache.getReport('p', '99')).not.toBeNull();
    expect(
      readdirSync(dir).filter(
        (name) => /\.corrupt-[^-]+$/.test(name) || /corrupt-\d{4}-\d{2}-\d{2}T\d{9}Z$/.test(name),
      ),
    ).toHaveLength(1);
  });

  it('a file that is no database at open is set aside and told through onSetAside', () => {
    writeFileSync(file, 'not a database, only some text that is long enough to be a file');
    const events: SetAsideEvent[] = [];
    open({ onSetAside: (event) => events.push(event) });
    expect(events).toEqual([expect.objectContaining({ during: 'open', code: 'SQLITE_NOTADB', lost: null })]);
  });
});

describe('a read-only folder', () => {
  onTmpfs(
    'reads the copy; refuses every write with read_only; keeps no write-through',
    2 * 1024 * 1024,
    async (disk) => {
      try {
        const target = join(disk.dir, 'cache.sqlite');
        const first = ReportCache.open(target);
        first.putReports('p', generateReports(30), T0);
        first.close();
        disk.remount('ro');
        const cache = ReportCache.open(target);
        caches.push(cache);
        expect(cache.readOnly).toEqual({ folder: disk.dir, code: 'EROFS' });
        expect(cache.status('p').reportCount).toBe(30);
        expect(failureOf(() => cache.clearCopy('p'))).toMatchObject({
          kind: 'read_only',
          details: { folder: disk.dir },
        });
        cache.putReportsSoon('p', generateReports(1, 500), T1);
        cache.putReportsLater('p', generateReports(1, 501), T1);
        cache.putAccount('p', { email: 'a@example.com' }, T1);
        cache.setMeta('p', 'x', 'y');
        expect(cache.pendingPages).toBe(0);
        expect(cache.getMeta('p', 'x')).toBeNull();
        expect(cache.status('p').reportCount).toBe(30);
      } finally {
        for (const cache of caches.splice(0)) cache.close();
      }
    },
  );
});
