/**
 * The list query's semantics written plainly, over rows as the cache stores them: the oracle
 * of the counted-road tests. Orders the way SQLite does (see the reports table in
 * electron/core/cache/migrations/v1Initial.ts): numbers before text in id_sort, compared by
 * value whatever their type; text by its UTF-8 bytes; NULL before everything; ties by id.
 */
import { idSortKey, projectOf, textOrNull } from '../../electron/core/cache/records';
import type { NormalizedListQuery, Report } from '../../shared/report';

export interface StoredRow {
  id: string;
  idSort: number | bigint | string;
  url: string;
  urlLower: string;
  project: string | null;
  result: string | null;
  generatedAt: string | null;
}

/** A report as putReports stores it. */
export function storedRow(report: Report): StoredRow {
  const url = typeof report.url === 'string' ? report.url : '';
  return {
    id: String(report.id),
    idSort: idSortKey(String(report.id)),
    url,
    urlLower: url.toLowerCase(),
    project: projectOf(report.project),
    result: textOrNull(report.result),
    generatedAt: textOrNull(report.generated_at),
  };
}

type Value = number | bigint | string | null;

/** SQLite's BINARY order of two values of a column (NULL < numbers < text). */
export function compareValues(a: Value, b: Value): number {
  const rank = (v: Value) => (v === null ? 0 : typeof v === 'string' ? 2 : 1);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b));
  if (a === null || b === null) return 0;
  return a < b ? -1 : a > b ? 1 : 0;
}

const SORT_VALUE: Record<NormalizedListQuery['sort_by'], (row: StoredRow) => Value> = {
  id: () => null,
  generated_at: (row) => row.generatedAt,
  url: (row) => row.url,
  result: (row) => row.result,
};

/** The rows a query matches (filters and search), in the list's order. */
export function listed(rows: readonly StoredRow[], q: NormalizedListQuery): StoredRow[] {
  const search = q.search.toLowerCase();
  const direction = q.sort === 'asc' ? 1 : -1;
  return rows
    .filter(
      (row) =>
        (q.project === '' || row.project === q.project) &&
        (q.result === null || row.result === q.result) &&
        row.urlLower.includes(search),
    )
    .sort(
      (a, b) =>
        direction *
        (compareValues(SORT_VALUE[q.sort_by](a), SORT_VALUE[q.sort_by](b)) ||
          compareValues(a.idSort, b.idSort) ||
          compareValues(a.id, b.id)),
    );
}

/** A page's ids and the total, as the service would answer. */
export function expectedPage(
  rows: readonly StoredRow[],
  q: NormalizedListQuery,
): { ids: string[]; total: number } {
  const all = listed(rows, q);
  const start = (q.page - 1) * q.per_page;
  return { ids: all.slice(start, start + q.per_page).map((row) => row.id), total: all.length };
}
