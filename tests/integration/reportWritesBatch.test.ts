/**
 * cache/reportWrites.ts writes a batch of reports with one upsert statement (issue 27: one
 * statement journal per batch instead of one per report, which spilled to a temporary file each
 * time). The rows it writes are the rows a statement per report wrote: every column's value and
 * storage class (a number id's sort key stays REAL as a bound JavaScript number made it, a long
 * one's INTEGER as a bigint did), text of any kind, NULLs, and a repeated id in one batch.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportCache } from '../../electron/core/cache/reportCache';

let dir: string;
let cache: ReportCache;
const AT = '2026-01-01T00:00:00.000Z';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-writes-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
});

afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

function rows(): Record<string, unknown>[] {
  const db = new Database(join(dir, 'cache.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        `SELECT id, id_sort, typeof(id_sort) AS sort_type, url, url_lower, result, project, generated_at,
           fetched_at, last_seen_sync FROM reports ORDER BY rowid`,
      )
      .all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('a batch of reports in one statement', () => {
  it('writes every column with the storage class a bound value had', () => {
    cache.putReports(
      'scope',
      [
        {
          id: '42',
          url: 'https://A.example/Ünï "q" \\ \n',
          result: 'good',
          project: 7,
          generated_at: '2025-01-01',
        },
        { id: '12345678901234567', url: 'u', result: null, project: '  ', generated_at: null },
        { id: '123456789012345678901', url: 'u', result: 'bad', project: 'p' },
        { id: 'abc', url: 'u', result: 'decent', generated_at: 5 as never },
        { id: '0', url: 'u' },
      ],
      AT,
      { syncId: 'sync-1' },
    );
    expect(rows()).toEqual([
      {
        id: '42',
        id_sort: 42,
        sort_type: 'real',
        url: 'https://A.example/Ünï "q" \\ \n',
        url_lower: 'https://a.example/ünï "q" \\ \n',
        result: 'good',
        project: '7',
        generated_at: '2025-01-01',
        fetched_at: AT,
        last_seen_sync: 'sync-1',
      },
      {
        id: '12345678901234567',
        id_sort: 12345678901234568,
        sort_type: 'integer',
        url: 'u',
        url_lower: 'u',
        result: null,
        project: null,
        generated_at: null,
        fetched_at: AT,
        last_seen_sync: 'sync-1',
      },
      {
        id: '123456789012345678901',
        id_sort: 123456789012345680000,
        sort_type: 'real',
        url: 'u',
        url_lower: 'u',
        result: 'bad',
        project: 'p',
        generated_at: null,
        fetched_at: AT,
        last_seen_sync: 'sync-1',
      },
      {
        id: 'abc',
        id_sort: 'abc',
        sort_type: 'text',
        url: 'u',
        url_lower: 'u',
        result: 'decent',
        project: null,
        generated_at: null,
        fetched_at: AT,
        last_seen_sync: 'sync-1',
      },
      {
        id: '0',
        id_sort: 0,
        sort_type: 'real',
        url: 'u',
        url_lower: 'u',
        result: null,
        project: null,
        generated_at: null,
        fetched_at: AT,
        last_seen_sync: 'sync-1',
      },
    ]);
  });

  it('a repeated id keeps the last, a changed report is updated, an unread mark stays', () => {
    cache.putReports('scope', [{ id: '1', url: 'a', result: 'good' }], AT, { syncId: 'sync-1' });
    cache.putReports(
      'scope',
      [
        { id: '1', url: 'b', result: 'bad' },
        { id: '2', url: 'c', result: 'good' },
        { id: '2', url: 'd', result: 'decent' },
      ],
      AT,
    );
    expect(
      rows().map(({ id, url, result, last_seen_sync }) => ({ id, url, result, last_seen_sync })),
    ).toEqual([
      { id: '1', url: 'b', result: 'bad', last_seen_sync: 'sync-1' },
      { id: '2', url: 'd', result: 'decent', last_seen_sync: null },
    ]);
    expect(cache.getReport('scope', '2')?.report).toEqual({ id: '2', url: 'd', result: 'decent' });
  });
});
