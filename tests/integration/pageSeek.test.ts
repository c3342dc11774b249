/**
 * Where a deep page's walk starts (electron/core/cache/pageSeek.ts), over counted positions
 * written by hand into a real cache schema: the bucket holding the page's first row, the rows
 * of it to step over, the pieces of a page sorted by result that spans two results, and the
 * condition that puts the walk there. countedQuery.test.ts proves the pages these give.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../electron/core/cache/reportCache';
import { pagePieces } from '../../electron/core/cache/pageSeek';

let db: Database.Database;
beforeEach(() => {
  db = new Database(':memory:');
  for (const sql of MIGRATIONS) db.exec(sql);
});
afterEach(() => db.close());

/** Positions of the scope 's': [sort, bucket, result (0 for none), rows]. */
function positions(rows: [string, unknown, unknown, number][]): void {
  const insert = db.prepare(
    'INSERT INTO report_positions (scope, sort, bucket, result, n) VALUES (?, ?, ?, ?, ?)',
  );
  for (const row of rows) insert.run('s', ...row);
}

const pieces = (
  q: { sort_by: 'id' | 'generated_at' | 'url' | 'result'; result?: 'good' | 'bad' },
  position: number,
  take: number,
) => pagePieces((sql) => db.prepare(sql), 's', { result: null, ...q }, position, take);

describe('pagePieces', () => {
  beforeEach(() =>
    positions([
      // A day of no date (NULL or ''), then two days; an empty bucket is passed over.
      ['g', '', 'good', 5],
      ['g', '2025-05-01', 'good', 6],
      ['g', '2025-05-01', 'bad', 4],
      ['g', '2025-05-02', 'bad', 0],
      ['g', '2025-05-03', 'good', 10],
    ]),
  );

  it('starts in the first bucket with no condition: it holds rows of no date, which no text bound keeps', () => {
    expect(pieces({ sort_by: 'generated_at' }, 0, 3)).toEqual([{ where: '', params: {}, skip: 0, take: 3 }]);
    expect(pieces({ sort_by: 'generated_at' }, 4, 3)).toEqual([{ where: '', params: {}, skip: 4, take: 3 }]);
  });

  it('starts at the bucket holding the first row, stepping over that bucket’s rows before it only', () => {
    const at = (start: string, skip: number, take: number) => [
      { where: ' AND generated_at >= @start', params: { start }, skip, take },
    ];
    // Row 5 is the first of 2025-05-01 (both results count); row 15 the first of 2025-05-03.
    expect(pieces({ sort_by: 'generated_at' }, 5, 10)).toEqual(at('2025-05-01', 0, 10));
    expect(pieces({ sort_by: 'generated_at' }, 14, 10)).toEqual(at('2025-05-01', 9, 10));
    expect(pieces({ sort_by: 'generated_at' }, 15, 3)).toEqual(at('2025-05-03', 0, 3));
    // Only the rows there are: 5 from row 20.
    expect(pieces({ sort_by: 'generated_at' }, 20, 10)).toEqual(at('2025-05-03', 5, 5));
  });

  it('counts one result’s rows only with a result filter', () => {
    expect(pieces({ sort_by: 'generated_at', result: 'bad' }, 2, 10)).toEqual([
      { where: '', params: {}, skip: 2, take: 2 },
    ]);
    expect(pieces({ sort_by: 'generated_at', result: 'good' }, 11, 2)).toEqual([
      { where: ' AND generated_at >= @start', params: { start: '2025-05-03' }, skip: 0, take: 2 },
    ]);
  });

  it('gives nothing from the last row on', () => {
    expect(pieces({ sort_by: 'generated_at' }, 25, 10)).toEqual([]);
    expect(pieces({ sort_by: 'url' }, 0, 10)).toEqual([]);
  });

  it('starts a bucket of ids at its first id, exactly however large', () => {
    positions([
      ['i', 0, 'good', 3],
      ['i', 2, 'good', 3],
      ['i', 2 ** 51 - 1, 'good', 3],
      ['i', 'ab', 'good', 3],
    ]);
    const start = (position: number) => pieces({ sort_by: 'id' }, position, 1)[0].params.start;
    expect(start(3)).toBe(8_192n);
    expect(start(6)).toBe(9_223_372_036_854_771_712n);
    // Text ids sort after every number; their bucket is a prefix of theirs.
    expect(start(9)).toBe('ab');
  });

  it('reads a page sorted by result in one piece per result it spans, NULL first', () => {
    positions([
      ['i', 0, 0, 4],
      ['i', 0, 'bad', 3],
      ['i', 1, 'bad', 3],
      ['i', 0, 'good', 5],
    ]);
    const inRun = (run: string, start?: bigint) => ({
      where: ` AND result = @run${start === undefined ? '' : ' AND id_sort >= @start'}`,
      params: start === undefined ? { run } : { run, start },
    });
    expect(pieces({ sort_by: 'result' }, 2, 4)).toEqual([
      { where: ' AND result IS NULL', params: {}, skip: 2, take: 2 },
      { ...inRun('bad'), skip: 0, take: 2 },
    ]);
    // Row 8 is in the second bucket of 'bad' (its last): the walk starts there.
    expect(pieces({ sort_by: 'result' }, 8, 6)).toEqual([
      { ...inRun('bad', 4_096n), skip: 1, take: 2 },
      { ...inRun('good'), skip: 0, take: 4 },
    ]);
    // Up to the last row, and no further.
    expect(pieces({ sort_by: 'result' }, 7, 100)).toEqual([
      { ...inRun('bad', 4_096n), skip: 0, take: 3 },
      { ...inRun('good'), skip: 0, take: 5 },
    ]);
    // With a result filter, its rows are one run in id order.
    expect(pieces({ sort_by: 'result', result: 'bad' }, 4, 1)).toEqual([
      { where: ' AND id_sort >= @start', params: { start: 4_096n }, skip: 1, take: 1 },
    ]);
  });
});
