/**
 * What every benchmark shares: the one-line JSON output format, order statistics, temp dirs,
 * and the realistic report records (the reference service's own generator, so urls, projects,
 * results and dates look like the service's).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateReports, urlPool } from '../../electron/demo-service/seed';
import type { Report } from '../../shared/model';

export interface Measurement {
  bench: string;
  metric: string;
  value: number;
  unit: string;
  /** The goal in words ("<= 5 ms"), or "none (informational)". */
  goal: string;
  met: boolean;
}

/** Prints one measurement as one JSON line on stdout (the only thing benches print there). */
export function emit(measurement: Measurement): void {
  process.stdout.write(JSON.stringify(measurement) + '\n');
}

/** A goal as the benches write it: at most or at least a limit, then the unit ("<= 5 ms", ">= 3x"). */
export interface Goal {
  atMost: boolean;
  limit: number;
}

export function parseGoal(text: string): Goal {
  const match = /^(<=|>=) (\d+(?:\.\d+)?)/.exec(text);
  if (!match) throw new Error(`A goal reads "<= N unit" or ">= N unit", not "${text}".`);
  return { atMost: match[1] === '<=', limit: Number(match[2]) };
}

export function meets(value: number, goal: Goal): boolean {
  return goal.atMost ? value <= goal.limit : value >= goal.limit;
}

/**
 * `value` rounded to `digits` decimals, or to more where that rounding would read on the other
 * side of the goal: 1.2049 against "<= 1.2x" prints 1.205, never 1.2 (which reads as met).
 */
export function roundForGoal(value: number, goal: Goal, digits = 2): number {
  const met = meets(value, goal);
  for (let places = digits; places <= 12; places++) {
    const rounded = round(value, places);
    if (meets(rounded, goal) === met) return rounded;
  }
  return value;
}

/**
 * A figure held to a goal: `met` computed from the value as measured, and the value printed
 * with the precision the goal needs (roundForGoal), so the line never reads as met when it is not.
 */
export function emitGoal(
  bench: string,
  metric: string,
  value: number,
  unit: string,
  goal: string,
  digits = 2,
): void {
  const parsed = parseGoal(goal);
  emit({ bench, metric, value: roundForGoal(value, parsed, digits), unit, goal, met: meets(value, parsed) });
}

/** A figure without a goal: context for the ones that have one. */
export function info(bench: string, metric: string, value: number, unit: string): void {
  emit({ bench, metric, value, unit, goal: 'none (informational)', met: true });
}

/** Progress and explanations go to stderr, so stdout stays machine-readable. */
export function note(bench: string, text: string): void {
  process.stderr.write(`[${bench}] ${text}\n`);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest-rank: the smallest value with at least p% of the samples at or below it.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export const median = (values: readonly number[]) => percentile(values, 50);

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `reportdesk-bench-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * `count` reports as the reference service's JSON would carry them (no password hash), made
 * in chunks so a caller can store and drop them without holding all of them at once.
 */
export function* realisticReportChunks(count: number, chunkSize = 5_000, seed = 2024): Generator<Report[]> {
  const anchor = new Date('2025-06-01T00:00:00.000Z');
  for (let first = 1; first <= count; first += chunkSize) {
    const size = Math.min(chunkSize, count - first + 1);
    const stored = generateReports({
      seed: seed + first,
      count: size,
      firstId: first,
      anchor,
      passwordHash: '',
    });
    yield stored.map(({ password_hash: _hash, id, ...rest }) => ({ ...rest, id: String(id) }));
  }
}

/**
 * History's copy (issue 27): `count` reports of `urls` URLs (each a page of its own) generated
 * over `years` years up to 2025-06-01, oldest first in chunks as a sync reads them, each URL's
 * result following its own history (the seed's resultAt: steady, got better, got worse, with
 * flaky measurements).
 */
export function* historyReportChunks(
  count: number,
  urls: number,
  years: number,
  chunks = 200,
): Generator<Report[]> {
  const end = new Date('2025-06-01T00:00:00.000Z');
  const spanDays = years * 365;
  const pool = urlPool(2027, urls, { distinct: true });
  const size = Math.ceil(count / chunks);
  for (let k = 0; k < chunks; k++) {
    const stored = generateReports({
      seed: 27_000 + k,
      count: Math.min(size, count - k * size),
      firstId: 1 + k * size,
      anchor: new Date(end.getTime() - (((chunks - 1 - k) * spanDays) / chunks) * 86_400_000),
      passwordHash: '',
      spanDays: spanDays / chunks,
      urls: pool,
      history: { anchor: end, spanDays },
    });
    yield stored.map(({ password_hash: _hash, id, ...rest }) => ({ ...rest, id: String(id) }));
  }
}
