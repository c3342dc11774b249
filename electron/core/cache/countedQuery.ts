/**
 * The list query of a large scope: every total is counted, none is found by visiting the
 * matching rows (migrations/v5ListCounts.ts). A search's total is the sum of the counts of the
 * distinct urls that contain it; a report has one url, so the sum is exact for any search, and
 * it costs as many urls as match, not reports. Its page is read by a walk that stops at the
 * page, by the runs of its urls in URL order, or by collecting its rows through their urls;
 * a deep page without a search starts at its counted position (pageSeek.ts).
 */
import type Database from 'better-sqlite3';
import type { NormalizedListQuery } from '../../../shared/report';
import { chooseCountedPlan, type ListPlan, type SortIndex } from './listPlan';
import {
  ftsPhrase,
  listFilters,
  planCounts,
  readPageRows,
  RememberedSearches,
  sqlDirection,
  type Statement,
} from './listSql';
import { pagePieces } from './pageSeek';
import type { ReportRow } from './records';

type Filters = Pick<NormalizedListQuery, 'project' | 'result'>;

/** A search's rows of one (project, result) ('' for none). */
interface FilterCount {
  project: string;
  result: string;
  n: number;
  /** 1 when one of the urls is held with another lowercased form too (see the migration). */
  shared: number;
}

/**
 * FROM and WHERE of the search_urls rows (as `u`) of the scope whose url contains the search
 * (if any) and that pass the filters: found through the trigram index over them from 3
 * characters (exact, as in migrations/v3ListPlanner.ts), checked one by one below. `inUrlOrder` walks
 * them in URL order (read as far as needed) instead of in the index's.
 */
function matchingUrls(search: string, q: Filters, inUrlOrder: boolean): string {
  const trigrams = [...search].length >= 3;
  const filters = [
    ...(q.project !== '' ? ['u.project = @project'] : []),
    ...(q.result !== null ? ['u.result = @result'] : []),
  ];
  if (trigrams && !inUrlOrder)
    return `search_url_trigrams t CROSS JOIN search_urls u ON u.id = t.rowid
      WHERE ${['t.search_url_trigrams MATCH @match', 'u.scope = @scope', ...filters].join(' AND ')}`;
  const contains =
    search === ''
      ? []
      : [
          trigrams
            ? 'u.id IN (SELECT rowid FROM search_url_trigrams WHERE search_url_trigrams MATCH @match)'
            : 'instr(u.url_lower, @search) > 0',
        ];
  return `search_urls u ${inUrlOrder ? 'INDEXED BY sqlite_autoindex_search_urls_1' : ''}
    WHERE ${['u.scope = @scope', ...contains, ...filters].join(' AND ')}`;
}

/** The trigram index's phrase for a search: its lowercased text as one phrase. */
const trigramPhrase = (search: string) => ftsPhrase(search.toLowerCase());

export class CountedQuery {
  /** Each search's counts per (project, result), while the database is unchanged. */
  private readonly matches: RememberedSearches<FilterCount[]>;

  constructor(
    db: Database.Database,
    private readonly statement: Statement,
    /** Index steps before a page is sought (listPlan.ts's SEEK_FROM_STEPS; tests lower it). */
    private readonly seekFromSteps?: number,
  ) {
    this.matches = new RememberedSearches(db, statement);
  }

  /** The overview's counts per (project, result) for a search, from its urls' counts. */
  resultCounts(
    scope: string,
    q: Filters & Pick<NormalizedListQuery, 'search'>,
  ): { project: string; result: string; n: number }[] {
    return passingFilters(this.searchCounts(scope, q), q).map(({ project, result, n }) => ({
      project,
      result,
      n,
    }));
  }

  read(scope: string, q: NormalizedListQuery): { total: number; plan: ListPlan; rows: ReportRow[] } {
    const { filteredRows, rangeRows } = planCounts(this.statement, scope, q);
    // A search's counts, looked up once for the total and for whether a matching url is shared.
    const counts = q.search === '' ? null : this.searchCounts(scope, q);
    const total =
      counts === null ? filteredRows : passingFilters(counts, q).reduce((sum, count) => sum + count.n, 0);
    const plan = chooseCountedPlan({ q, total, rangeRows, filteredRows }, this.seekFromSteps);
    const { whereSql, params } = listFilters(scope, q);
    params.match = trigramPhrase(q.search);
    const listed = sqlDirection(q);
    const read = (source: string, walked: 'ASC' | 'DESC', take: number, skip: number) => ({
      total,
      plan,
      rows: readPageRows(this.statement, { q, source, walked, params, take, skip }),
    });
    /**
     * The rows of the urls `urls` (SQL) selects that pass the filters, found in the URL index
     * (or, walking another index, as the set of their rowids); checked against the search
     * when a url is shared.
     */
    const ofUrls = (urls: string, walked?: SortIndex) => {
      const shared = counts !== null && counts.some((count) => count.shared);
      const { whereSql: filters } = listFilters(scope, shared ? q : { ...q, search: '' });
      return walked === undefined
        ? `reports INDEXED BY reports_by_url WHERE ${filters} AND url IN (${urls})`
        : `reports INDEXED BY ${walked} WHERE ${filters} AND rowid IN (
             SELECT rowid FROM reports INDEXED BY reports_by_url WHERE scope = @scope AND url IN (${urls}))`;
    };

    switch (plan.kind) {
      case 'empty':
        return { total, plan, rows: [] };
      case 'url-runs': {
        const start = pageRuns(this.urlRuns(q, params), plan.skip, plan.take);
        params.urls = JSON.stringify(start.urls);
        return read(ofUrls('SELECT value FROM json_each(@urls)'), listed, plan.take, start.skip);
      }
      case 'url-matches':
        return read(
          ofUrls(`SELECT u.url FROM ${matchingUrls(q.search, q, false)}`),
          listed,
          plan.take,
          plan.skip,
        );
      case 'seek': {
        // In the list's order: the pieces (runs of results) ascending, or the other way round.
        const pieces = pagePieces(this.statement, scope, q, plan.position, plan.take).map((piece) =>
          readPageRows(this.statement, {
            q,
            source: `reports INDEXED BY ${plan.index} WHERE ${whereSql}${piece.where}`,
            walked: 'ASC',
            params: { ...params, ...piece.params },
            take: piece.take,
            skip: piece.skip,
          }),
        );
        return { total, plan, rows: (listed === 'ASC' ? pieces : pieces.reverse()).flat() };
      }
      case 'walk': {
        const walked = sqlDirection(q, plan.reverse);
        const source =
          plan.search === 'url-set'
            ? ofUrls(`SELECT u.url FROM ${matchingUrls(q.search, q, false)}`, plan.index)
            : `reports INDEXED BY ${plan.index} WHERE ${whereSql}`;
        return read(source, walked, plan.take, plan.skip);
      }
      default:
        return read(`reports WHERE ${whereSql}`, listed, plan.take, plan.skip);
    }
  }

  /**
   * A search's rows per (project, result) of the scope, summed over its urls' counts and
   * remembered while nothing changes (the filters of a list only pick among them).
   */
  private searchCounts(scope: string, q: Pick<NormalizedListQuery, 'search'>): FilterCount[] {
    const search = q.search.toLowerCase();
    return this.matches.get(
      [scope, search],
      () =>
        this.statement(
          `SELECT u.project AS project, u.result AS result, sum(u.n) AS n, max(u.shared) AS shared
         FROM ${matchingUrls(search, { project: '', result: null }, false)}
         GROUP BY u.project, u.result`,
        ).all({ scope, search, match: trigramPhrase(search) }) as FilterCount[],
    );
  }

  /** The matching urls' rows (with the filters) in the list's URL order, read as far as asked. */
  private urlRuns(
    q: NormalizedListQuery,
    params: Record<string, unknown>,
  ): Iterable<{ url: string; n: number }> {
    return this.statement(
      `SELECT u.url AS url, sum(u.n) AS n FROM ${matchingUrls(q.search, q, true)}
       GROUP BY u.url ORDER BY u.url ${sqlDirection(q)}`,
    ).iterate(params) as Iterable<{ url: string; n: number }>;
  }
}

/**
 * The urls a page in URL order spans and the rows of the first one before the page, from the
 * matching urls' rows in the list's order; stops reading them at the page's end.
 */
export function pageRuns(
  runs: Iterable<{ url: string; n: number }>,
  offset: number,
  take: number,
): { urls: string[]; skip: number } {
  let before = 0;
  let rows = 0;
  const urls: string[] = [];
  for (const run of runs) {
    if (urls.length === 0 && before + run.n <= offset) {
      before += run.n;
      continue;
    }
    urls.push(run.url);
    rows += run.n;
    if (before + rows >= offset + take) break;
  }
  return { urls, skip: offset - before };
}

/** The counts of the filters' project and result ('' and null: any). */
function passingFilters(counts: FilterCount[], q: Filters): FilterCount[] {
  return counts.filter(
    (count) =>
      (q.project === '' || count.project === q.project) && (q.result === null || count.result === q.result),
  );
}
