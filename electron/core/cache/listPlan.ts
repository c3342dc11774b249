/**
 * How the cache answers one page of the list: which index to walk, from which end, or whether
 * to collect a search's matches from the trigram index and sort them. Pure (numbers in, a
 * plan out) so the choice can be read and tested apart from the SQL; every plan gives the
 * same answer, only the work differs.
 */
import type { NormalizedListQuery } from '../../../shared/report';

/** The sort indexes of the reports table (see the cache's first migration). */
export type SortIndex =
  'reports_by_id' | 'reports_by_generated_at' | 'reports_by_url' | 'reports_by_result' | 'reports_by_project';

export interface WalkIndex {
  index: SortIndex;
  /** The filter the index's second column answers (its rows are one range of the index). */
  leading: 'project' | 'result' | null;
}

/**
 * The index whose order is the list's order. Sorting by id within one project or one result
 * is the order of that filter's index too, so such a walk visits only the filter's rows.
 */
export function walkIndexFor(q: NormalizedListQuery): WalkIndex {
  switch (q.sort_by) {
    case 'id':
      if (q.project !== '') return { index: 'reports_by_project', leading: 'project' };
      if (q.result !== null) return { index: 'reports_by_result', leading: 'result' };
      return { index: 'reports_by_id', leading: null };
    case 'result':
      return { index: 'reports_by_result', leading: q.result !== null ? 'result' : null };
    case 'generated_at':
      return { index: 'reports_by_generated_at', leading: null };
    case 'url':
      return { index: 'reports_by_url', leading: null };
  }
}

export type ListPlan =
  /** Nothing to read: the page starts at or after the last match. */
  | { kind: 'empty' }
  /**
   * Walk `index` in the list's order (or the reverse one, when the page is nearer the end) and
   * stop after `skip + take` matches; no sort step. Project and result are checked in the
   * index itself; a search either reads each visited row's url (`search: 'row'`) or asks the
   * trigram index's set of matches (`search: 'trigram-set'`, no row read, one pass over the
   * matches first), or in a large scope the set of the rows of its urls (`search: 'url-set'`,
   * found in the URL index, no row read).
   */
  | {
      kind: 'walk';
      index: SortIndex;
      reverse: boolean;
      skip: number;
      take: number;
      search: 'row' | 'trigram-set' | 'url-set';
    }
  /** Read every match found by the trigram index, sort them, then skip: cheap when they are few. */
  | { kind: 'trigram'; skip: number; take: number }
  /** Read every row of the filters' index range, sort them, then skip (no search). */
  | { kind: 'filter-then-sort'; skip: number; take: number }
  /**
   * A large scope's deep page (see pageSeek.ts): the counted positions give the bucket of the
   * order holding row `position` (counted from the start of the ascending order), the walk
   * starts there and takes `take` rows.
   */
  | { kind: 'seek'; index: SortIndex; position: number; take: number }
  /**
   * A large scope's search or filter in URL order (see countedQuery.ts): the matching urls'
   * counts, in order, find the url holding the page's first row; only the page's rows are read.
   */
  | { kind: 'url-runs'; skip: number; take: number }
  /** A large scope's search with few matches: their rows, found through their urls, sorted. */
  | { kind: 'url-matches'; skip: number; take: number };

/**
 * Rough costs, in rows read from the table: a step along an index is far cheaper than a row
 * read; a row read and sorted costs about two; each match of the trigram index a fraction.
 */
const INDEX_STEP_COST = 0.1;
const SORTED_ROW_COST = 2;
const TRIGRAM_MATCH_COST = 0.3;

export interface PlanInput {
  q: NormalizedListQuery;
  /** Exact number of matching rows (the page's total). */
  total: number;
  /** Rows in the walk index's range (the scope's, or the leading filter's within it). */
  rangeRows: number;
  /** Rows that pass the project and result filters (the scope's rows without them). */
  filteredRows: number;
  /** Whether the trigram index can find the matches (a search of 3 or more characters). */
  trigramSearch: boolean;
}

/** The plans choosePlan picks from (the others are a large scope's: chooseCountedPlan). */
export type IndexedPlan = Extract<ListPlan, { kind: 'empty' | 'walk' | 'trigram' | 'filter-then-sort' }>;

export function choosePlan({ q, total, rangeRows, filteredRows, trigramSearch }: PlanInput): IndexedPlan {
  const offset = (q.page - 1) * q.per_page;
  if (offset >= total) return { kind: 'empty' };
  const { index } = walkIndexFor(q);
  // From the end, the page is the `take` rows that come `skip` rows before the last one.
  const reverse = total - offset < offset + q.per_page;
  const skip = reverse ? Math.max(0, total - offset - q.per_page) : offset;
  const take = reverse ? Math.min(q.per_page, total - offset) : q.per_page;
  const walk = { kind: 'walk', index, reverse, skip, take } as const;

  // Matches are spread through the walk's range: to find skip + take of them, expect to visit
  // that many times (range ÷ matches) index entries; with a search, to read that many times
  // (filtered ÷ matches) rows.
  const needed = skip + take;
  const steps = ((needed * rangeRows) / Math.max(1, total)) * INDEX_STEP_COST;
  const collect = total * SORTED_ROW_COST;
  if (q.search === '') {
    return steps <= collect
      ? { ...walk, search: 'row' }
      : { kind: 'filter-then-sort', skip: offset, take: q.per_page };
  }
  if (!trigramSearch) return { ...walk, search: 'row' };
  const rowWalk = steps + (needed * filteredRows) / Math.max(1, total);
  const setWalk = steps + total * TRIGRAM_MATCH_COST;
  // Urls sort by site, and a search is often a site: its matches sit together in that order,
  // so a walk reading rows may cross a long run of non-matches before the first one.
  const rowWalkSafe = q.sort_by !== 'url';
  const best = Math.min(collect + total * TRIGRAM_MATCH_COST, setWalk, rowWalkSafe ? rowWalk : Infinity);
  if (rowWalkSafe && best === rowWalk) return { ...walk, search: 'row' };
  if (best === setWalk) return { ...walk, search: 'trigram-set' };
  return { kind: 'trigram', skip: offset, take: q.per_page };
}

/** Index steps a walk may take to its page before a large scope seeks it through the counted positions. */
export const SEEK_FROM_STEPS = 20_000;
/** A search's match found in the URL index, into a set a walk asks (no row read). */
const URL_SET_COST = 0.15;
/** A search's match found in the URL index and sorted there; by date, its row read too. */
const URL_MATCH_COST = { indexed: 0.5, generated_at: 2.5 };

/**
 * The plan for a large scope (countedQuery.ts), where every total is counted rather than
 * found. Without a search: choosePlan's, unless its walk would step over more than
 * SEEK_FROM_STEPS index entries to reach the page; then a seek (without a project filter:
 * the positions know results, not projects). In URL order with a search or a filter, the
 * runs of the matching urls. With a search otherwise, the cheapest of a walk reading rows, a
 * walk asking the set of the matching urls' rows, and those rows collected and sorted.
 */
export function chooseCountedPlan(
  input: Omit<PlanInput, 'trigramSearch'>,
  seekFromSteps = SEEK_FROM_STEPS,
): ListPlan {
  const { q, total, rangeRows, filteredRows } = input;
  const plan = choosePlan({ ...input, trigramSearch: false });
  if (plan.kind !== 'walk') return plan;
  const offset = (q.page - 1) * q.per_page;
  const needed = plan.skip + plan.take;
  const steps = (needed * rangeRows) / total;
  // In URL order a site's rows sit together, and a filter (or a search) is often a site: a
  // walk may cross a long run of other sites' rows. The runs of its urls skip those.
  if (q.sort_by === 'url' && (q.search !== '' || q.project !== '' || q.result !== null))
    return { kind: 'url-runs', skip: offset, take: q.per_page };
  if (q.search === '') {
    if (q.project !== '' || steps <= seekFromSteps) return plan;
    // The page's first row counted from the start of the ascending order.
    const ascending = q.sort === 'asc' ? offset : total - offset - plan.take;
    return { kind: 'seek', index: plan.index, position: ascending, take: plan.take };
  }
  const rowWalk = steps * INDEX_STEP_COST + (needed * filteredRows) / total;
  const setWalk = steps * INDEX_STEP_COST + total * URL_SET_COST;
  const collect = total * URL_MATCH_COST[q.sort_by === 'generated_at' ? 'generated_at' : 'indexed'];
  const best = Math.min(rowWalk, setWalk, collect);
  if (best === rowWalk) return plan;
  if (best === setWalk) return { ...plan, search: 'url-set' };
  return { kind: 'url-matches', skip: offset, take: q.per_page };
}
