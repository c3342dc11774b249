/**
 * What both roads of the list query share (listQuery.ts for any scope, countedQuery.ts for a
 * large one): the filters' WHERE clause, the sort columns, the read of one page's rows, and
 * the searches remembered while the file is unchanged.
 */
import type Database from 'better-sqlite3';
import type { NormalizedListQuery } from '../../../shared/report';
import { walkIndexFor } from './listPlan';
import type { ReportRow } from './records';

export type Statement = (sql: string) => Database.Statement;

const ORDER_COLUMNS: Record<NormalizedListQuery['sort_by'], string[]> = {
  id: ['id_sort', 'id'],
  generated_at: ['generated_at', 'id_sort', 'id'],
  url: ['url', 'id_sort', 'id'],
  result: ['result', 'id_sort', 'id'],
};

/** The list's order as SQL says it, or (`reverse`: a walk from the other end) its opposite. */
export function sqlDirection(q: Pick<NormalizedListQuery, 'sort'>, reverse = false): 'ASC' | 'DESC' {
  return (q.sort === 'asc') !== reverse ? 'ASC' : 'DESC';
}

/** A text as one FTS5 phrase: in double quotes, its own quotes doubled. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** The ORDER BY terms of the list's order, or of its reverse. */
export function orderBy(q: Pick<NormalizedListQuery, 'sort_by'>, direction: 'ASC' | 'DESC'): string {
  return ORDER_COLUMNS[q.sort_by].map((column) => `${column} ${direction}`).join(', ');
}

/** The search's condition in listFilters' WHERE clause. */
export const SEARCH_CONDITION = 'instr(url_lower, @search) > 0';

/**
 * The WHERE clause of a list query's filters (project, result, search): the list and the
 * overview share it. instr() matches the text literally, so % and _ in a search are plain
 * characters; the indexes only narrow the rows.
 */
export function listFilters(
  scope: string,
  q: Pick<NormalizedListQuery, 'project' | 'result' | 'search'>,
): { whereSql: string; params: Record<string, unknown> } {
  const filters = ['scope = @scope'];
  const params: Record<string, unknown> = { scope };
  if (q.project !== '') {
    filters.push('project = @project');
    params.project = q.project;
  }
  if (q.result !== null) {
    filters.push('result = @result');
    params.result = q.result;
  }
  if (q.search !== '') {
    filters.push(SEARCH_CONDITION);
    params.search = q.search.toLowerCase();
  }
  return { whereSql: filters.join(' AND '), params };
}

/**
 * One page's rows: ordered and skipped on the narrow columns of `source` (a FROM clause and
 * its WHERE), walked in `walked` order; only the page's JSON records are read, in the list's
 * order.
 */
export function readPageRows(
  statement: Statement,
  page: {
    q: Pick<NormalizedListQuery, 'sort_by' | 'sort'>;
    source: string;
    walked: 'ASC' | 'DESC';
    params: Record<string, unknown>;
    take: number;
    skip: number;
  },
): ReportRow[] {
  const { q, source, walked, params, take, skip } = page;
  return statement(
    `SELECT id, record, fetched_at FROM reports WHERE rowid IN (
       SELECT rowid FROM ${source} ORDER BY ${orderBy(q, walked)} LIMIT @take OFFSET @skip
     ) ORDER BY ${orderBy(q, sqlDirection(q))}`,
  ).all({ ...params, take, skip }) as ReportRow[];
}

/** Searches remembered at most (a handful paged or re-sorted; a million rowids is ~8 MB of JSON). */
const REMEMBERED_SEARCHES = 16;

/**
 * What was found for a search, remembered while the database is unchanged: paging through a
 * search or sorting it another way finds it once. Unchanged means no commit by another
 * connection (PRAGMA data_version) and no row changed by this one (total_changes()).
 */
export class RememberedSearches<T> {
  private readonly found = new Map<string, T>();
  /** The database's version when `found` was filled; none before the first look. */
  private version: string | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly statement: Statement,
  ) {}

  get(key: readonly unknown[], find: () => T): T {
    const version = `${this.db.pragma('data_version', { simple: true }) as number}/${
      (this.statement('SELECT total_changes() AS n').get() as { n: number }).n
    }`;
    if (version !== this.version) {
      this.found.clear();
      this.version = version;
    }
    const text = JSON.stringify(key);
    let value = this.found.get(text);
    if (value === undefined) {
      value = find();
      if (this.found.size >= REMEMBERED_SEARCHES) this.found.clear();
      this.found.set(text, value);
    }
    return value;
  }
}

/** Rows of the scope with these filters ('' and null: any), from the trigger-kept counts. */
export function countedRows(
  statement: Statement,
  scope: string,
  project: string,
  result: string | null,
): number {
  const where = ['scope = @scope'];
  if (project !== '') where.push('project = @project');
  if (result !== null) where.push('result = @result');
  return (
    statement(`SELECT coalesce(sum(n), 0) AS n FROM report_counts WHERE ${where.join(' AND ')}`).get({
      scope,
      ...(project !== '' ? { project } : {}),
      ...(result !== null ? { result } : {}),
    }) as { n: number }
  ).n;
}

/**
 * The trigger-kept counts a plan weighs: the rows that pass the filters, and the rows in the
 * range of the index the list's order walks (the scope's, or its leading filter's).
 */
export function planCounts(
  statement: Statement,
  scope: string,
  q: NormalizedListQuery,
): { filteredRows: number; rangeRows: number } {
  const { leading } = walkIndexFor(q);
  return {
    filteredRows: countedRows(statement, scope, q.project, q.result),
    rangeRows: countedRows(
      statement,
      scope,
      leading === 'project' ? q.project : '',
      leading === 'result' ? q.result : null,
    ),
  };
}
