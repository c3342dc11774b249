/**
 * history (issue 27): the offline copy at 1,000,000 reports of 100,000 URLs over five years
 * (common.ts › historyReportChunks, written through the cache as any write is, so the triggers
 * keep history as they do for a sync), and the history channels through the real core:
 *  - weekly_1m_ms: `history:periods` by week over the whole range, all projects; weekly_project_1m_ms
 *    the same for one project. A different time zone each run (east and west of UTC, half
 *    hours), so no run repeats another's edges;
 *  - timeline_1m_ms: `history:timeline` of a different URL each run;
 *  - compare_1m_ms: `history:compare` of two dates a year apart, a different pair each run.
 * Medians, with the goals of the issue. Informational: the time to fill the copy, the history
 * tables' size, the v6 migration rebuilding them on this copy, and the weekly answer counted
 * from the points alone (no hour or day sums), which is what the sums save.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../electron/core/cache/migrations';
import { LAST_FULL_SYNC_META, ReportCache } from '../../electron/core/cache/reportCache';
import { createCoreServices } from '../../electron/core/services';
import { periodsCovering } from '../../shared/calendar';
import type { ContractHandlers, HistoryPeriods } from '../../shared/contract';
import { emit, historyReportChunks, info, median, note, round, tempDir } from './common';
import { fillCache } from './offlineQuery';
import { cacheDatabase } from '../helpers/cacheDatabase';

const BENCH = 'history';
const REPORTS = 1_000_000;
const URLS = 100_000;
const YEARS = 5;
const RUNS = 9;
const TIMELINE_RUNS = 41;
const MB = 1024 * 1024;
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Adelaide',
  'UTC',
  'America/Los_Angeles',
  'Asia/Tokyo',
  'America/Sao_Paulo',
  'Asia/Kathmandu',
];
const NOW = new Date('2025-06-01T00:00:00.000Z');
const YEAR_MS = 365 * 86_400_000;

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

function emitMs(metric: string, values: number[], goalMs: number, digits: number): void {
  const value = median(values);
  emit({
    bench: BENCH,
    metric,
    value: round(value, digits),
    unit: 'ms',
    goal: `<= ${goalMs} ms`,
    met: value <= goalMs,
  });
  note(BENCH, `${metric} runs: ${values.map((ms) => round(ms, digits)).join(', ')} ms`);
}

/** A core on `dataDir` whose connection's copy is the bench's (it never reaches a service). */
function openCore(dataDir: string) {
  return createCoreServices({
    dataDir,
    now: () => NOW,
    probeIntervalMs: 0,
    fetch: () => Promise.reject(new Error('history read the network')),
    fixedConnection: {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'bench-history-key-0000',
      allowInsecureHttp: false,
    },
  });
}

export async function runHistory(): Promise<void> {
  const dir = tempDir(BENCH);
  try {
    const dataDir = join(dir.path, 'data');
    const filler = await openCore(dataDir);
    try {
      const scope = filler.connections.activeScope()!;
      note(
        BENCH,
        `filling the copy with ${REPORTS.toLocaleString('en')} reports of ${URLS.toLocaleString('en')} URLs over ${YEARS} years…`,
      );
      const fillStart = performance.now();
      fillCache(filler.cache, scope, null, REPORTS, historyReportChunks(REPORTS, URLS, YEARS));
      filler.cache.setMeta(scope, LAST_FULL_SYNC_META, NOW.toISOString());
      info(BENCH, 'fill_1m_s', round((performance.now() - fillStart) / 1000, 1), 's');
    } finally {
      await filler.close();
    }
    // Read as a user does: a core started on the copy (the filling one's leftovers aside).
    const core = await openCore(dataDir);
    try {
      const scope = core.connections.activeScope()!;
      measureSize(core.cache.file);
      await measureReads(core.handlers, core.cache, scope);
      measureWithoutSums(core.cache.file, scope);
      measureMigration(core.cache);
      await measureReads(core.handlers, core.cache, scope, 'after_migration_');
    } finally {
      await core.close();
    }
  } finally {
    dir.remove();
  }
}

async function measureReads(
  h: ContractHandlers,
  cache: ReportCache,
  scope: string,
  prefix = '',
): Promise<void> {
  for (const project of [null, 'docs']) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { ms, value } = await timed(() =>
        h['history:periods']({ by: 'week', project, timeZone: ZONES[run % ZONES.length] }),
      );
      const answer = value as HistoryPeriods;
      if (!answer.available || answer.periods.length < 52 * YEARS)
        throw new Error('The weekly history came back short.');
      times.push(ms);
    }
    emitMs(`${prefix}${project === null ? 'weekly_1m_ms' : 'weekly_project_1m_ms'}`, times, 100, 1);
  }
  if (prefix !== '') return;

  const urls = cache.history
    .urlsAt({ scope, project: null }, NOW.getTime(), { result: null, after: '', limit: 500 })
    .urls.filter((_, i) => i % 12 === 0);
  const timeline: number[] = [];
  for (let run = 0; run < TIMELINE_RUNS; run++) {
    const { ms, value } = await timed(() => h['history:timeline']({ url: urls[run % urls.length].url }));
    if (!value.available || value.reports.length === 0) throw new Error('A timeline came back empty.');
    timeline.push(ms);
  }
  emitMs('timeline_1m_ms', timeline, 5, 3);

  const compare: number[] = [];
  let changes = 0;
  for (let run = 0; run < RUNS; run++) {
    // A different pair each run, a year apart, across the five years.
    const from = Date.parse('2020-09-01T00:00:00Z') + run * 97 * 86_400_000;
    const { ms, value } = await timed(() =>
      h['history:compare']({
        from: new Date(from).toISOString(),
        to: new Date(from + YEAR_MS).toISOString(),
        project: null,
        timeZone: 'UTC',
      }),
    );
    if (!value.available) throw new Error('Compare came back unavailable.');
    changes += value.changes.length;
    compare.push(ms);
  }
  emitMs('compare_1m_ms', compare, 300, 1);
  info(BENCH, 'compare_1m_changes_mean', Math.round(changes / RUNS), 'URLs');
}

/** The history tables' share of the file. */
function measureSize(file: string): void {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'history%' GROUP BY name`)
      .all() as { name: string; bytes: number }[];
    const total = rows.reduce((sum, row) => sum + row.bytes, 0);
    info(BENCH, 'history_tables_1m', round(total / MB, 1), 'MB');
  } finally {
    db.close();
  }
}

/**
 * The alternative the sums replace: the weekly answer (all projects, UTC) from every point in
 * time order, summed in JavaScript. One run: it reads the whole copy's points.
 */
function measureWithoutSums(file: string, scope: string): void {
  const db = new Database(file, { readonly: true });
  try {
    const start = performance.now();
    const edges = periodsCovering(
      'week',
      Date.parse('2020-06-01T00:00:00Z'),
      NOW.getTime(),
      'UTC',
      10_000,
    )!.map((p) => p.end);
    const counts: number[][] = [];
    const running = [0, 0, 0];
    let next = 0;
    const rows = db
      .prepare(
        `SELECT at, result, prev_result FROM history_points INDEXED BY history_points_by_time WHERE scope = ? ORDER BY at`,
      )
      .raw()
      .iterate(scope) as Iterable<[number, number, number | null]>;
    for (const [at, result, previous] of rows) {
      while (next < edges.length && at > edges[next]) counts[next++] = [...running];
      running[result] += 1;
      if (previous !== null) running[previous] -= 1;
    }
    info(BENCH, 'weekly_1m_from_points_alone_ms', round(performance.now() - start, 1), 'ms');
  } finally {
    db.close();
  }
}

/** The v6 migration rebuilding history from the reports of a copy made before it (and v8's triggers after). */
function measureMigration(cache: ReportCache): void {
  const db = cacheDatabase(cache);
  db.exec(`
    DROP TRIGGER history_report_added; DROP TRIGGER history_report_removed;
    DROP TRIGGER history_report_moved; DROP TRIGGER history_report_rerated;
    DROP TABLE history_points; DROP TABLE history_buckets; DROP TABLE history_project_buckets;
    DROP TABLE history_clearing; DROP TABLE history_pending;`);
  const start = performance.now();
  db.transaction(() => {
    db.exec(MIGRATIONS[5]);
    db.exec(MIGRATIONS[7]);
  })();
  info(BENCH, 'migrate_1m_s', round((performance.now() - start) / 1000, 1), 's');
}
