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

  it('reads from the end that is nearer the page: never more index entries than from the other end', () => {
    for (const per_page of [10, 25] as const)
      for (let total = 1; total <= 120; total++)
        for (let page = 1; (page - 1) * per_page < total; page++) {
          const plan = plain(q({ page, per_page }), total);
          if (plan.kind !== 'walk') throw new Error(`expected a walk, got ${plan.kind}`);
          const offset = (page - 1) * per_page;
          const forwards = offset + per_page;
          const backwards = total - offset;
          const chosen = plan.skip + plan.take;
          // The same rows either way: the page's rows that exist.
          expect({ total, page, per_page, take: plan.take }).toEqual({
            total,
            page,
            per_page,
            take: Math.min(per_page, total - offset),
          });
          expect({ total, page, per_page, chosen }).toEqual({
            total,
            page,
            per_page,
            chosen: Math.min(forwards, backwards),
          });
        }
  });

  it('walks to a page of a common filter, and sorts the rows of a rare one', () => {
    const filtered = (page: number, total: number) =>
      choosePlan({
        q: q({ project: 'shop', sort_by: 'url', page }),
        total,
        rangeRows: 100_000,
        filteredRows: total,
        trigramSearch: false,
      });
    // A project with 1% of 100,000 rows, page 10: ~1,000 index steps beat sorting its 1,000 rows.
    expect(filtered(10, 1_000)).toMatchObject({ kind: 'walk', index: 'reports_by_url', search: 'row' });
    // A project with 0.1%: walking to its first ten would step over ~10,000 entries.
    expect(filtered(1, 100)).toEqual({ kind: 'filter-then-sort', skip: 0, take: 10 });
  });

  it('weighs collecting a search’s matches against walking the order with their set', () => {
    // 1,000 matches in URL order (where a walk never reads rows to find them).
    const inUrlOrder = (page: number, per_page: 10 | 25, rangeRows: number) =>
      choosePlan({
        q: q({ search: 'shop', sort_by: 'url', page, per_page }),
        total: 1_000,
        rangeRows,
        filteredRows: rangeRows,
        trigramSearch: true,
      });
    // Page 3 among 1,000,000 rows: ~3,000 index steps to reach it cost more than sorting 1,000 rows.
    expect(inUrlOrder(3, 10, 1_000_000)).toEqual({ kind: 'trigram', skip: 20, take: 10 });
    // The first 25 among 700,000 rows: ~1,750 steps, less than collecting and sorting.
    expect(inUrlOrder(1, 25, 700_000)).toMatchObject({ kind: 'walk', search: 'trigram-set' });
  });

  it('walks the index whose order is the list’s, led by the filter it can narrow to', () => {
    const cases = [
      [{}, 'reports_by_id', null],
      [{ project: 'shop' }, 'reports_by_project', 'project'],
      [{ result: 'bad' }, 'reports_by_result', 'result'],
      [{ project: 'shop', result: 'bad' }, 'reports_by_project', 'project'],
      [{ sort_by: 'result' }, 'reports_by_result', null],
      [{ sort_by: 'result', result: 'bad' }, 'reports_by_result', 'result'],
      [{ sort_by: 'result', project: 'shop' }, 'reports_by_result', null],
      [{ sort_by: 'generated_at' }, 'reports_by_generated_at', null],
      [{ sort_by: 'generated_at', result: 'bad', project: 'shop' }, 'reports_by_generated_at', null],
      [{ sort_by: 'url' }, 'reports_by_url', null],
      [{ sort_by: 'url', result: 'bad' }, 'reports_by_url', null],
    ] as const;
    for (const [change, index, leading] of cases)
      expect({ change, walk: walkIndexFor(q(change)) }).toEqual({ change, walk: { index, leading } });
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
