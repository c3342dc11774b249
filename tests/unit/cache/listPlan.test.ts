/**
 * The list planner's arithmetic (the SQL side is proven against the oracle in
 * tests/integration/cacheQueryPlan.test.ts): which end a page is read from, what is skipped
 * and taken then, and when the matches are collected instead of walked to.
 */
import { describe, expect, it } from 'vitest';
import { choosePlan, walkIndexFor } from '../../../electron/core/cache/listPlan';
import { normalizeListQuery, type NormalizedListQuery } from '../../../shared/model';

const q = (change: Partial<NormalizedListQuery>): NormalizedListQuery => ({
  ...normalizeListQuery(),
  ...change,
});
const plain = (query: NormalizedListQuery, total: number) =>
  choosePlan({ q: query, total, rangeRows: total, filteredRows: total, trigramSearch: false });

describe('choosePlan', () => {
  it('reads a page near the start forwards and one near the end backwards', () => {
    expect(plain(q({ page: 2 }), 1_000)).toMatchObject({ kind: 'walk', reverse: false, skip: 10, take: 10 });
    expect(plain(q({ page: 100 }), 1_000)).toMatchObject({ kind: 'walk', reverse: true, skip: 0, take: 10 });
    expect(plain(q({ page: 99 }), 1_000)).toMatchObject({ kind: 'walk', reverse: true, skip: 10, take: 10 });
  });

  it('takes only the rows a short last page has, and nothing past the end', () => {
    expect(plain(q({ page: 10 }), 95)).toMatchObject({ kind: 'walk', reverse: true, skip: 0, take: 5 });
    expect(plain(q({ page: 11 }), 95)).toEqual({ kind: 'empty' });
    expect(plain(q({}), 0)).toEqual({ kind: 'empty' });
  });

  it('collects a few matches of a search instead of walking the whole order to them', () => {
    const search = q({ search: 'rare', page: 3 });
    const input = { q: search, rangeRows: 100_000, filteredRows: 100_000, trigramSearch: true };
    expect(choosePlan({ ...input, total: 40 })).toEqual({ kind: 'trigram', skip: 20, take: 10 });
    expect(choosePlan({ ...input, total: 40_000 })).toMatchObject({ kind: 'walk', search: 'row' });
    // In URL order a site's matches sit together: never walk reading rows to find them.
    expect(choosePlan({ ...input, q: { ...search, sort_by: 'url' }, total: 40_000 })).toMatchObject({
      kind: 'walk',
      search: 'trigram-set',
    });
    // Too short for the trigram index: walking is the only way.
    expect(choosePlan({ ...input, trigramSearch: false, total: 40 })).toMatchObject({
      kind: 'walk',
      search: 'row',
    });
  });

  it('walks the filter’s own index when sorting by id within a project or a result', () => {
    expect(walkIndexFor(q({ project: 'shop' }))).toEqual({ index: 'reports_by_project', leading: 'project' });
    expect(walkIndexFor(q({ result: 'bad' }))).toEqual({ index: 'reports_by_result', leading: 'result' });
    expect(walkIndexFor(q({ result: 'bad', sort_by: 'url' }))).toEqual({
      index: 'reports_by_url',
      leading: null,
    });
  });
});
