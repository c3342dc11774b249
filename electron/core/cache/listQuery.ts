/**
 * The list query and its planner glue: the totals (trigger-kept counts, or the trigram index
 * for a search), the remembered search matches, and the page read the way listPlan.ts
 * chooses. A large scope's list is counted instead (countedQuery.ts). Used by ReportCache,
 * which owns the connection and its prepared statements.
 */
import type Database from 'better-sqlite3';
import type { NormalizedListQuery, ReportPage } from '../../../shared/report';
import { CountedQuery } from './countedQuery';
import { choosePlan, type ListPlan } from './listPlan';
import {
  countedRows,
  ftsPhrase,
  listFilters,
  planCounts,
  readPageRows,
  RememberedSearches,
  SEARCH_CONDITION,
  sqlDirection,
  type Statement,
} from './listSql';
import { parseRecord, type ReportRow } from './records';

export interface CacheQueryResult {
  page: ReportPage;
  /** The OLDEST fetched_at among the returned rows (the age of what is shown); null when no rows. */
  fetchedAt: string | null;
  /** How the page was read (for the planner's tests and benchmarks; never sent to the renderer). */
  plan: ListPlan;
}

interface SearchMatches {
  total: number;
  /** The trigram index's query (null: no row can match, or a search too short for it). */
  match: string | null;
  /** The matching rowids as a JSON array, found when a plan first needs them. */
  rowids?: string;
}

export class ListQuery {
  /** Search matches in the database as it is (see RememberedSearches). */
  private readonly matches: RememberedSearches<SearchMatches>;
  private readonly counted: CountedQuery;

  constructor(
    db: Database.Database,
    /** The cache's prepared statement for this SQL (the cache writes pending pages first). */
    private readonly statement: Statement,
    /** Index steps before a large scope's page is sought (listPlan.ts › SEEK_FROM_STEPS); tests lower it. */
    options: { seekFromSteps?: number } = {},
  ) {
    this.matches = new RememberedSearches(db, statement);
    this.counted = new CountedQuery(db, statement, options.seekFromSteps);
  }

  /** Whether the scope's list is counted (it reached 20,000 reports: migrations/v5ListCounts.ts). */
  private isCounted(scope: string): boolean {
    return (
      this.statement('SELECT EXISTS (SELECT 1 FROM counted_scopes WHERE scope = ?)').pluck().get(scope) === 1
    );
  }

  /**
   * Reports per (project, result) matching the filters: the overview's numbers. Without a
   * search the trigger-kept counts answer; with one, the matching rows are counted (in a
   * large scope, their urls' counts).
   */
  resultCounts(
    scope: string,
    q: Pick<NormalizedListQuery, 'project' | 'result' | 'search'>,
  ): { project: string; result: string; n: number }[] {
    if (q.search !== '' && this.isCounted(scope)) return this.counted.resultCounts(scope, q);
    const { whereSql, params } = listFilters(scope, q);
    const sql =
      q.search === ''
        ? `SELECT project, result, sum(n) AS n FROM report_counts WHERE ${whereSql} GROUP BY project, result HAVING sum(n) > 0`
        : `SELECT coalesce(project, '') AS project, coalesce(result, '') AS result, count(*) AS n
           FROM reports WHERE ${whereSql} GROUP BY 1, 2`;
    return this.statement(sql).all(params) as { project: string; result: string; n: number }[];
  }

  /**
   * One page of the list, with the service's semantics (see report-service-api.md §4.1):
   * found with the trigram index (indexedRead), or counted in a large scope (countedQuery.ts).
   */
  query(scope: string, q: NormalizedListQuery): CacheQueryResult {
    const { total, plan, rows } = this.isCounted(scope)
      ? this.counted.read(scope, q)
      : this.indexedRead(scope, q);
    let oldest: string | null = null;
    for (const row of rows) if (oldest === null || row.fetched_at < oldest) oldest = row.fetched_at;
    return {
      page: {
        reports: rows.map(parseRecord),
        page: q.page,
        perPage: q.per_page,
        total,
        lastPage: Math.max(1, Math.ceil(total / q.per_page)),
      },
      fetchedAt: oldest,
      plan,
    };
  }

  /**
   * The total first, from the cheapest exact source: the trigger-kept counts without a
   * search, the trigram index alone with one. Then listPlan.ts picks how to read the page.
   */
  private indexedRead(
    scope: string,
    q: NormalizedListQuery,
  ): { total: number; plan: ListPlan; rows: ReportRow[] } {
    const { whereSql, params } = listFilters(scope, q);
    const search = q.search.toLowerCase();
    // Fewer than 3 characters is below the trigram index's reach: those rows are checked one by one.
    const trigramSearch = [...search].length >= 3;

    // A search's matches: their number, and (for a trigram search, when a plan needs them)
    // their rowids, found once and remembered while the database is unchanged.
    const matches =
      search === ''
        ? null
        : this.matches.get([scope, search, q.project, q.result], () =>
            trigramSearch
              ? this.trigramMatches(scope, search, q)
              : {
                  total: (
                    this.statement(`SELECT count(*) AS n FROM reports WHERE ${whereSql}`).get(params) as {
                      n: number;
                    }
                  ).n,
                  match: null,
                },
          );
    const { filteredRows, rangeRows } = planCounts(this.statement, scope, q);
    const total = matches ? matches.total : filteredRows;
    const plan = choosePlan({ q, total, rangeRows, filteredRows, trigramSearch });
    if (plan.kind === 'empty') return { total, plan, rows: [] };

    const walked = sqlDirection(q, plan.kind === 'walk' && plan.reverse);
    const inMatches = 'rowid IN (SELECT value FROM json_each(@rowids))';
    const source =
      plan.kind === 'walk' && plan.search === 'trigram-set'
        ? `reports INDEXED BY ${plan.index} WHERE ${whereSql.replace(SEARCH_CONDITION, inMatches)}`
        : plan.kind === 'walk'
          ? `reports INDEXED BY ${plan.index} WHERE ${whereSql}`
          : plan.kind === 'trigram'
            ? `reports NOT INDEXED WHERE ${inMatches} AND ${whereSql}`
            : `reports WHERE ${whereSql}`;
    const usesMatches = plan.kind === 'trigram' || (plan.kind === 'walk' && plan.search === 'trigram-set');
    // Only a trigram search with matches gets those plans (choosePlan), so its query is known.
    if (usesMatches && matches?.match) params.rowids = matches.rowids ??= this.trigramRowids(matches.match);
    const { take, skip } = plan;
    return { total, plan, rows: readPageRows(this.statement, { q, source, walked, params, take, skip }) };
  }

  /** Rows of the scope with these filters ('' and null: any), from the trigger-kept counts. */
  countedRows(scope: string, project: string, result: string | null): number {
    return countedRows(this.statement, scope, project, result);
  }

  /**
   * A search's matches, found in the trigram index alone (exact: see migrations/v3ListPlanner.ts), without
   * reading a row.
   */
  private trigramMatches(scope: string, search: string, q: NormalizedListQuery): SearchMatches {
    const match = this.trigramMatch(scope, search, q);
    if (match === null) return { total: 0, match };
    const total = (
      this.statement('SELECT count(*) AS n FROM report_search WHERE report_search MATCH ?').get(match) as {
        n: number;
      }
    ).n;
    return { total, match };
  }

  /**
   * The rowids matching a trigram query, as a JSON array for json_each. Asked only by the
   * plans that need them (few matches, or a walk in URL order), not to count: a common word's
   * hundreds of thousands of rowids would cost more than the count.
   */
  private trigramRowids(match: string): string {
    const rowids = this.statement('SELECT rowid FROM report_search WHERE report_search MATCH ?')
      .pluck()
      .all(match) as number[];
    return JSON.stringify(rowids);
  }

  /**
   * The FTS5 query for a search and the filters; null when a filter's value is one no row has.
   * The scope's key is left out while no other scope has rows (it would match every row).
   */
  private trigramMatch(scope: string, search: string, q: NormalizedListQuery): string | null {
    const parts = [`url : ${ftsPhrase(search)}`];
    const filters: ['r' | 'p' | 's', string][] = [];
    if (q.project !== '') filters.push(['p', q.project]);
    if (q.result !== null) filters.push(['r', q.result]);
    const shared = this.statement(
      'SELECT EXISTS (SELECT 1 FROM report_counts WHERE scope != ? AND n > 0) AS shared',
    ).get(scope) as { shared: number };
    if (shared.shared) filters.push(['s', scope]);
    const column = { r: 'result_key', p: 'project_key', s: 'scope_key' };
    for (const [kind, value] of filters) {
      const row = this.statement('SELECT id FROM report_search_keys WHERE kind = ? AND value = ?').get(
        kind,
        value,
      ) as { id: number } | undefined;
      // A value no row ever had: nothing can match.
      if (!row) return null;
      // The same key as the triggers of migrations/v3ListPlanner.ts: one character, so one trigram.
      parts.push(`${column[kind]} : "<${String.fromCodePoint(65536 + row.id)}>"`);
    }
    // Stryker disable next-line StringLiteral: ' AND ' → '' (its only direction) gives the same FTS5 query: FTS5 reads phrases side by side as AND, and each part after the first starts with its column's name.
    return parts.join(' AND ');
  }

  /** Distinct non-empty project names of the scope, sorted. */
  projects(scope: string, limit = 500): string[] {
    const rows = this.statement(
      `SELECT project FROM report_counts WHERE scope = ? AND project != ''
       GROUP BY project HAVING sum(n) > 0 ORDER BY project LIMIT ?`,
    ).all(scope, limit) as { project: string }[];
    return rows.map((row) => row.project);
  }
}
