/**
 * A deep page of a large scope without a search, found without stepping over every row before
 * it: report_positions (migrations/v5ListCounts.ts) counts the rows per bucket of each sort
 * order, so the rows before a bucket are a sum over a few hundred buckets; the page's walk
 * starts at its bucket and steps over the rows of that bucket only.
 */
import type { NormalizedListQuery } from '../../../shared/report';
import type { Statement } from './listSql';

/** The counted order of each sort: its buckets and the column they are a prefix of. */
const SORTS: Record<NormalizedListQuery['sort_by'], { sort: 'i' | 'g' | 'u'; column: string }> = {
  id: { sort: 'i', column: 'id_sort' },
  // Sorting by result is sorting by id within each result (see the runs below).
  result: { sort: 'i', column: 'id_sort' },
  generated_at: { sort: 'g', column: 'generated_at' },
  url: { sort: 'u', column: 'url' },
};

export interface PagePiece {
  /** Conditions that put the walk at its bucket and keep it in its run (' AND …'). */
  where: string;
  params: Record<string, unknown>;
  /** Rows of the bucket (of the filters) before the piece's first row, and rows to take. */
  skip: number;
  take: number;
}

interface Bucket {
  run: unknown;
  bucket: unknown;
  n: number;
}

/**
 * How to walk to rows `position` to `position + take` of the ascending order (of one
 * result, with a result filter: the counts know no project): one piece, or sorted by result
 * with no result filter one per run of a result the rows span (the order is a run of rows per
 * result, NULL first as 0 in the counts, each in id order).
 */
export function pagePieces(
  statement: Statement,
  scope: string,
  q: Pick<NormalizedListQuery, 'sort_by' | 'result'>,
  position: number,
  take: number,
): PagePiece[] {
  const { sort, column } = SORTS[q.sort_by];
  const runs = q.sort_by === 'result' && q.result === null;
  const buckets = statement(
    runs
      ? `SELECT result AS run, bucket, sum(n) AS n FROM report_positions WHERE scope = @scope AND sort = @sort
         GROUP BY result, bucket HAVING sum(n) > 0 ORDER BY result, bucket`
      : `SELECT NULL AS run, bucket, sum(n) AS n FROM report_positions WHERE scope = @scope AND sort = @sort
         ${q.result !== null ? 'AND result = @result' : ''} GROUP BY bucket HAVING sum(n) > 0 ORDER BY bucket`,
  ).all({ scope, sort, ...(q.result !== null ? { result: q.result } : {}) }) as Bucket[];

  // The bucket holding the first row.
  let before = 0;
  let index = 0;
  while (index < buckets.length && before + buckets[index].n <= position) before += buckets[index++].n;
  const pieces: PagePiece[] = [];
  let skip = position - before;
  for (let left = take; left > 0 && index < buckets.length; skip = 0) {
    const found = buckets[index];
    const startsRun = index === 0 || (runs && buckets[index - 1].run !== found.run);
    // The rows from this bucket to the end of its run (of the whole order without runs).
    let rows = 0;
    while (index < buckets.length && (!runs || buckets[index].run === found.run)) rows += buckets[index++].n;
    const piece = Math.min(left, rows - skip);
    pieces.push({ ...startAt(found, startsRun, runs, column), skip, take: piece });
    left -= piece;
  }
  return pieces;
}

/** Ids per numeric bucket of the id order, as a shift (4,096: `id_sort >> 12` in the migration). */
const ID_BUCKET_SHIFT = 12n;

/** The conditions of a walk that starts at `found` (the first bucket of its run needs none but the run). */
function startAt(
  found: Bucket,
  startsRun: boolean,
  runs: boolean,
  column: string,
): Pick<PagePiece, 'where' | 'params'> {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (runs && found.run === 0) where.push('result IS NULL');
  else if (runs) {
    where.push('result = @run');
    params.run = found.run;
  }
  if (!startsRun) {
    where.push(`${column} >= @start`);
    // A numeric bucket of ids starts at its first id (a 64-bit integer: exact); any other
    // bucket is a prefix, which sorts before every value it starts.
    params.start = typeof found.bucket === 'number' ? BigInt(found.bucket) << ID_BUCKET_SHIFT : found.bucket;
  }
  return { where: where.map((condition) => ` AND ${condition}`).join(''), params };
}
