/**
 * How many URLs had each result at given instants, and how many reports were generated before
 * them, in a scope or one of its projects (migrations/v6History.ts). Each instant B is reached
 * from the nearest hour edge E, and E from the day edge nearest to it: the sum over the days
 * before that day edge, plus or minus the hours between the two edges (at most twelve), plus or
 * minus the points between E and B (at most half an hour's, none for a whole-hour zone's
 * midnight but those exactly at B). Exact for any offset, DST change or instant; periods are
 * differences of these sums at their edges, so a read costs the days it spans and a few rows
 * per edge, never the whole copy.
 */
import type Database from 'better-sqlite3';

/** Per result, in the order 0 good, 1 decent, 2 bad. */
export type Vector = [number, number, number];

export interface Sums {
  /** URLs whose result at the instant (reports generated at or before it) is each result. */
  urls: Vector;
  /** Reports generated before the instant, per result. */
  generated: Vector;
}

/** Whose history: a scope's (project null), or the URLs of one of its projects ('' none). */
export interface HistoryScope {
  scope: string;
  project: string | null;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

interface BucketRow {
  bucket: number;
  result: number;
  delta: number;
  generated: number;
}

interface PartRow {
  result: number;
  prev_result: number | null;
  /** Whether the point, and the point before it, are the project's (always 1 for a scope). */
  mine: number;
  prev_mine: number;
  /** Points in the part; of them, before the instant, and after it. */
  n: number;
  before: number;
  after: number;
}

/** The three edges an instant is reached from. */
export interface Edges {
  at: number;
  /** The hour edge nearest `at`, and the day edge nearest that hour edge, in ms. */
  hour: number;
  day: number;
}

/** The edges an instant's sums are reached from (exported for its tests: any edges give the right sums, near ones read less). */
export function edgesOf(at: number): Edges {
  const hour = Math.round(at / HOUR_MS) * HOUR_MS;
  return { at, hour, day: Math.round(hour / DAY_MS) * DAY_MS };
}

const zero = (): Vector => [0, 0, 0];

export class HistoryCounts {
  constructor(private readonly statement: (sql: string) => Database.Statement) {}

  /** The sums at each of `instants` (at least one, oldest first). */
  sumsAt(whose: HistoryScope, instants: readonly number[]): Sums[] {
    const edges = instants.map(edgesOf);
    const prefixes = this.dayPrefixes(
      whose,
      edges.map((edge) => edge.day / DAY_MS),
    );
    return edges.map((edge) => {
      const prefix = prefixes.get(edge.day / DAY_MS)!;
      const sums: Sums = { urls: [...prefix.urls], generated: [...prefix.generated] };
      this.addHours(whose, edge, sums);
      this.addPoints(whose, edge, sums);
      return sums;
    });
  }

  /** URLs per result at each period's end, and reports generated within it, for consecutive edges (fewer than two: none). */
  periods(whose: HistoryScope, edges: readonly number[]): { urls: Vector; generated: Vector }[] {
    const sums = this.sumsAt(whose, edges);
    return sums.slice(1).map((end, i) => ({
      urls: end.urls,
      generated: end.generated.map((n, result) => n - sums[i].generated[result]) as Vector,
    }));
  }

  /** The buckets of size `size` ('d', 'h') of a scope or project, from `where` on. */
  private buckets(whose: HistoryScope, size: 'd' | 'h', select: string, where: string): string {
    return whose.project === null
      ? `SELECT ${select} FROM history_buckets WHERE scope = @scope AND size = '${size}' AND ${where}`
      : `SELECT ${select} FROM history_project_buckets
         WHERE scope = @scope AND project = @project AND size = '${size}' AND ${where}`;
  }

  /** The sums over the days before each of `days` (in ascending order). */
  private dayPrefixes(whose: HistoryScope, days: readonly number[]): Map<number, Sums> {
    const wanted = [...new Set(days)];
    const prefixes = new Map<number, Sums>();
    const params = { ...whose, first: wanted[0], last: wanted.at(-1) };
    const running: Sums = { urls: zero(), generated: zero() };
    const before = this.statement(
      this.buckets(
        whose,
        'd',
        'result, sum(delta) AS delta, sum(generated) AS generated',
        'bucket < @first',
      ) + ' GROUP BY result',
    ).all(params) as BucketRow[];
    for (const row of before) add(running, row, 1);
    const rows = this.statement(
      this.buckets(whose, 'd', 'bucket, result, delta, generated', 'bucket >= @first AND bucket < @last') +
        ' ORDER BY bucket',
    ).all(params) as BucketRow[];
    let next = 0;
    for (const day of wanted) {
      while (next < rows.length && rows[next].bucket < day) add(running, rows[next++], 1);
      prefixes.set(day, { urls: [...running.urls], generated: [...running.generated] });
    }
    return prefixes;
  }

  /** Adds the hours from the day edge to the hour edge, or takes away those from the hour edge to it. */
  private addHours(whose: HistoryScope, edge: Edges, sums: Sums): void {
    const [from, to] = [Math.min(edge.day, edge.hour), Math.max(edge.day, edge.hour)];
    const rows = this.statement(
      this.buckets(
        whose,
        'h',
        'result, sum(delta) AS delta, sum(generated) AS generated',
        'bucket >= @from AND bucket < @to',
      ) + ' GROUP BY result',
    ).all({ ...whose, from: from / HOUR_MS, to: to / HOUR_MS }) as BucketRow[];
    for (const row of rows) add(sums, row, Math.sign(edge.hour - edge.day));
  }

  /** Adds the points from the hour edge to the instant, or takes away those from it to the hour edge. */
  private addPoints(whose: HistoryScope, edge: Edges, sums: Sums): void {
    const forward = edge.hour <= edge.at;
    // Forward: the points in [hour, at] count, those before `at` were generated before it.
    // Backward: the points in (at, hour) are taken back, and every point from `at` on.
    const [from, to] = forward ? [edge.hour, edge.at + 1] : [edge.at, edge.hour];
    // In a project, a point counts for it when it is the project's; the previous point's result
    // leaves it when that point was the project's.
    const mine = whose.project === null ? ['1', '1'] : ['project = @project', 'prev_project IS @project'];
    const rows = this.statement(
      `SELECT result, prev_result, ${mine[0]} AS mine, ${mine[1]} AS prev_mine, count(*) AS n,
         sum(at < @at) AS before, sum(at > @at) AS after
       FROM history_points INDEXED BY history_points_by_time
       WHERE scope = @scope AND at >= @from AND at < @to GROUP BY 1, 2, 3, 4`,
    ).all({ ...whose, at: edge.at, from, to }) as PartRow[];
    for (const row of rows) {
      const [urls, generated] = forward ? [row.n, row.before] : [-row.after, -row.n];
      if (row.mine === 1) {
        sums.urls[row.result] += urls;
        sums.generated[row.result] += generated;
      }
      if (row.prev_mine === 1 && row.prev_result !== null) sums.urls[row.prev_result] -= urls;
    }
  }
}

function add(sums: Sums, row: Pick<BucketRow, 'result' | 'delta' | 'generated'>, sign: number): void {
  sums.urls[row.result] += sign * row.delta;
  sums.generated[row.result] += sign * row.generated;
}
