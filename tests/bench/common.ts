/**
 * What every benchmark shares: the one-line JSON output format, order statistics, temp dirs,
 * and the realistic report records (the reference service's own generator, so urls, projects,
 * results and dates look like the service's).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateReports } from '../../electron/demo-service/seed';
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
