/**
 * A large scope's plans (listPlan.ts › chooseCountedPlan) and the arithmetic of a search's
 * page in URL order (countedQuery.ts › pageRuns). The SQL side is proven against the oracle in
 * tests/integration/countedQuery.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { pageRuns } from '../../../electron/core/cache/countedQuery';
import { chooseCountedPlan, choosePlan, SEEK_FROM_STEPS } from '../../../electron/core/cache/listPlan';
import { normalizeListQuery, type NormalizedListQuery } from '../../../shared/model';

const q = (change: Partial<NormalizedListQuery>): NormalizedListQuery => ({
  ...normalizeListQuery(),
  ...change,
});

describe('chooseCountedPlan', () => {
  const unsearched = (change: Partial<NormalizedListQuery>, total: number, seekFrom?: number) =>
    chooseCountedPlan({ q: q(change), total, rangeRows: total, filteredRows: total }, seekFrom);

  it('walks to a page as choosePlan does while the walk is short', () => {
    const query = q({ page: 3 });
    const input = { q: query, total: 100_000, rangeRows: 100_000, filteredRows: 100_000 };
    expect(chooseCountedPlan(input)).toEqual(choosePlan({ ...input, trigramSearch: false }));
    // The last index steps a walk may take before a seek.
    const last = SEEK_FROM_STEPS / 10;
    expect(unsearched({ page: last, per_page: 10 }, 1_000_000)).toMatchObject({
      kind: 'walk',
      skip: SEEK_FROM_STEPS - 10,
    });
    expect(unsearched({ page: last + 1, per_page: 10 }, 1_000_000)).toMatchObject({ kind: 'seek' });
  });

  it('seeks a deep page by its first row counted from the start of the ascending order', () => {
    expect(unsearched({ page: 400, per_page: 100, sort: 'asc' }, 100_000)).toEqual({
      kind: 'seek',
      index: 'reports_by_id',
      position: 39_900,
      take: 100,
    });
    // Listed from the end: page 400 of a descending list is rows 60,000 to 60,099 counted from the start.
    expect(unsearched({ page: 400, per_page: 100, sort: 'desc' }, 100_000)).toMatchObject({
      position: 60_000,
      take: 100,
    });
    // A short last page (95 rows left of 100): its rows are the first 95.
    expect(unsearched({ page: 400, per_page: 100, sort: 'desc' }, 39_995, 0)).toEqual({
      kind: 'seek',
      index: 'reports_by_id',
      position: 0,
      take: 95,
    });
    expect(unsearched({ page: 2, sort_by: 'generated_at', result: 'bad' }, 100_000, 0)).toMatchObject({
      kind: 'seek',
      index: 'reports_by_generated_at',
    });
  });

  it('walks within a project however deep (the positions know no project), and sorts a rare filter', () => {
    expect(unsearched({ page: 4_000, project: 'shop' }, 100_000)).toMatchObject({ kind: 'walk' });
    const rare = { q: q({ project: 'shop', sort_by: 'url' }), total: 5, rangeRows: 100_000, filteredRows: 5 };
    expect(chooseCountedPlan(rare)).toEqual({ kind: 'filter-then-sort', skip: 0, take: 10 });
    expect(unsearched({ page: 11 }, 100)).toEqual({ kind: 'empty' });
  });

  it('reads a search or a filter in URL order by the runs of its urls, whatever the counts', () => {
    // (A filter of a few rows is read and sorted whole, as choosePlan says.)
    for (const change of [{ search: 'x' }, { project: 'shop' }, { result: 'bad' as const }])
      for (const total of [5_000, 500_000])
        expect(
          chooseCountedPlan({
            q: q({ ...change, sort_by: 'url', page: 3 }),
            total,
            rangeRows: 1e6,
            filteredRows: total,
          }),
        ).toEqual({ kind: 'url-runs', skip: 20, take: 10 });
    // The whole list in URL order has no other rows to cross.
    expect(unsearched({ sort_by: 'url', page: 3 }, 1_000_000)).toMatchObject({
      kind: 'walk',
      index: 'reports_by_url',
    });
  });

  it('walks to a common search, asks the set of a less common one’s rows, and sorts a rare one', () => {
    const search = (
      total: number,
      sort_by: NormalizedListQuery['sort_by'] = 'id',
      filteredRows = 1_000_000,
    ) =>
      chooseCountedPlan({
        q: q({ search: 'x', page: 3, sort_by }),
        total,
        rangeRows: 1_000_000,
        filteredRows,
      });
    // 30 matches needed among 1,000,000 rows, a tenth of them matching: ~300 rows read.
    expect(search(100_000)).toMatchObject({ kind: 'walk', search: 'row', skip: 20, take: 10 });
    // 5,000 matches: 6,000 index steps asking a set of 5,000 beat 6,000 rows read, and sorting
    // 5,000 rows read by date; sorted by id in the URL index, they cost a little more than the set.
    expect(search(5_000, 'generated_at')).toMatchObject({
      kind: 'walk',
      search: 'url-set',
      index: 'reports_by_generated_at',
    });
    expect(search(5_000)).toMatchObject({ kind: 'walk', search: 'url-set' });
    // 2,000 matches sorted in the URL index cost less than 15,000 steps and the set; by date
    // each is read too, and the set wins.
    expect(search(2_000)).toEqual({ kind: 'url-matches', skip: 20, take: 10 });
    expect(search(2_000, 'generated_at')).toMatchObject({ kind: 'walk', search: 'url-set' });
    expect(search(100)).toEqual({ kind: 'url-matches', skip: 20, take: 10 });
    // Walking a project's own index, its 600 matches among 1,000 rows are near.
    const inProject = { q: q({ search: 'x', page: 3, project: 'p' }), total: 600, rangeRows: 1_000 };
    expect(chooseCountedPlan({ ...inProject, filteredRows: 1_000 })).toMatchObject({
      kind: 'walk',
      search: 'row',
    });
  });
});

describe('pageRuns', () => {
  // The matching urls' rows in the list's order: a (3 rows), b (6), c (5).
  const runs = [
    { url: 'a', n: 3 },
    { url: 'b', n: 6 },
    { url: 'c', n: 5 },
  ];

  it('finds the url holding the first row of the page and the rows of it before the page', () => {
    expect(pageRuns(runs, 0, 2)).toEqual({ urls: ['a'], skip: 0 });
    expect(pageRuns(runs, 3, 2)).toEqual({ urls: ['b'], skip: 0 });
    expect(pageRuns(runs, 8, 1)).toEqual({ urls: ['b'], skip: 5 });
    expect(pageRuns(runs, 2, 1)).toEqual({ urls: ['a'], skip: 2 });
  });

  it('takes every url the page spans', () => {
    expect(pageRuns(runs, 2, 10)).toEqual({ urls: ['a', 'b', 'c'], skip: 2 });
    expect(pageRuns(runs, 8, 2)).toEqual({ urls: ['b', 'c'], skip: 5 });
    expect(pageRuns(runs, 3, 6)).toEqual({ urls: ['b'], skip: 0 });
  });

  it('reads the runs no further than the page', () => {
    const read: string[] = [];
    function* counted() {
      for (const run of runs) {
        read.push(run.url);
        yield run;
      }
    }
    expect(pageRuns(counted(), 0, 3)).toEqual({ urls: ['a'], skip: 0 });
    expect(read).toEqual(['a']);
  });

  it('spans nothing past the last row', () => {
    expect(pageRuns(runs, 14, 10)).toEqual({ urls: [], skip: 0 });
    expect(pageRuns([], 0, 10)).toEqual({ urls: [], skip: 0 });
  });
});
