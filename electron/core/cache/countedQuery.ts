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
import { chooseCountedPlan, walkIndexFor, type ListPlan } from './listPlan';
import { countedRows, listFilters, readPageRows, RememberedSearches, type Statement } from './listSql';
import { pagePieces } from './pageSeek';
import type { ReportRow } from './records';

/** One counted url of a search's matches (search_urls: a url, a project and a result). */
interface UrlCount {
  url: string;
  project: string;
  result: string;
  n: number;
  /** The scope holds this url with another lowercased form too (see migrations/v5ListCounts.ts). */
  shared: number;
}

type Filters = Pick<NormalizedListQuery, 'project' | 'result'>;

const passes = (count: Pick<UrlCount, 'project' | 'result'>, q: Filters) =>
  (q.project === '' || count.project === q.project) && (q.result === null || count.result === q.result);

export class CountedQuery {
  /** Each search's counted urls in URL order, while the database is unchanged. */
  private readonly matches: RememberedSearches<UrlCount[]>;

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
    const counts = new Map<string, { project: string; result: string; n: number }>();
    for (const { project, result, n } of this.urlCounts(scope, q.search)) {
      if (!passes({ project, result }, q)) continue;
      const key = JSON.stringify([project, result]);
      const sum = counts.get(key);
      if (sum) sum.n += n;
      else counts.set(key, { project, result, n });
    }
    return [...counts.values()];
  }

  read(scope: string, q: NormalizedListQuery): { total: number; plan: ListPlan; rows: ReportRow[] } {
    const filtered = countedRows(this.statement, scope, q.project, q.result);
    const matching =
      q.search === '' ? null : this.urlCounts(scope, q.search).filter((count) => passes(count, q));
    const total = matching ? matching.reduce((sum, count) => sum + count.n, 0) : filtered;
    const { leading } = walkIndexFor(q);
    const rangeRows = countedRows(
      this.statement,
      scope,
      leading === 'project' ? q.project : '',
      leading === 'result' ? q.result : null,
    );
    const plan = chooseCountedPlan({ q, total, rangeRows, filteredRows: filtered }, this.seekFromSteps);
    const { whereSql, params } = listFilters(scope, q);
    const listed = q.sort === 'asc' ? 'ASC' : 'DESC';
    const read = (source: string, walked: 'ASC' | 'DESC', take: number, skip: number) => ({
      total,
      plan,
      rows: readPageRows(this.statement, { q, source, walked, params, take, skip }),
    });
    /** Rows of these urls passing the filters, checked against the search only if some url is shared. */
    const ofUrls = (urls: UrlCount[]) => {
      params.urls = JSON.stringify([...new Set(urls.map((count) => count.url))]);
      const { whereSql: filters } = listFilters(
        scope,
        urls.some((count) => count.shared) ? q : { ...q, search: '' },
      );
      return `reports INDEXED BY reports_by_url WHERE ${filters} AND url IN (SELECT value FROM json_each(@urls))`;
    };

    switch (plan.kind) {
      case 'empty':
        return { total, plan, rows: [] };
      case 'url-runs': {
        const start = pageRuns(matching ?? [], q.sort === 'asc' ? 1 : -1, plan.skip, plan.take);
        return read(ofUrls(start.urls), listed, plan.take, start.skip);
      }
      case 'url-matches':
        return read(ofUrls(matching ?? []), listed, plan.take, plan.skip);
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
        const walked = plan.reverse ? (listed === 'ASC' ? 'DESC' : 'ASC') : listed;
        return read(`reports INDEXED BY ${plan.index} WHERE ${whereSql}`, walked, plan.take, plan.skip);
      }
      default:
        return read(`reports WHERE ${whereSql}`, listed, plan.take, plan.skip);
    }
  }

  /**
   * A search's counted urls of the scope, in URL order: found in the trigram index over them
   * (exact for 3 characters and more, as in migrations/v3ListPlanner.ts), or, shorter,
   * checked one by one; remembered while nothing changes.
   */
  private urlCounts(scope: string, search: string): UrlCount[] {
    const text = search.toLowerCase();
    return this.matches.get([scope, text], () =>
      [...text].length >= 3
        ? (this.statement(
            `SELECT u.url, u.project, u.result, u.n, u.shared
             FROM search_url_trigrams t JOIN search_urls u ON u.id = t.rowid
             WHERE t.search_url_trigrams MATCH @match AND u.scope = @scope ORDER BY u.url`,
          ).all({ scope, match: `"${text.replace(/"/g, '""')}"` }) as UrlCount[])
        : (this.statement(
            `SELECT url, project, result, n, shared FROM search_urls
             WHERE scope = @scope AND instr(url_lower, @search) > 0 ORDER BY url`,
          ).all({ scope, search: text }) as UrlCount[]),
    );
  }
}

/**
 * The urls a page in URL order spans and the rows of the first one before the page, from the
 * counts of the matching urls (in URL order; `direction` -1 reads them from the end).
 */
export function pageRuns(
  counts: readonly UrlCount[],
  direction: 1 | -1,
  offset: number,
  take: number,
): { urls: UrlCount[]; skip: number } {
  const ordered = direction === 1 ? counts : [...counts].reverse();
  let before = 0;
  let index = 0;
  // A url's counts (one per project and result) sit together in URL order.
  const runEnd = (from: number) => {
    let end = from;
    while (end < ordered.length && ordered[end].url === ordered[from].url) end++;
    return end;
  };
  const runRows = (from: number, to: number) =>
    ordered.slice(from, to).reduce((sum, count) => sum + count.n, 0);
  for (
    let end = runEnd(index);
    index < ordered.length && before + runRows(index, end) <= offset;
    end = runEnd(index)
  ) {
    before += runRows(index, end);
    index = end;
  }
  const urls: UrlCount[] = [];
  for (let rows = before; index < ordered.length && rows < offset + take;) {
    const end = runEnd(index);
    urls.push(...ordered.slice(index, end));
    rows += runRows(index, end);
    index = end;
  }
  return { urls, skip: offset - before };
}
