/**
 * memory: resident memory of the core holding 100,000 cached reports, after a walk through
 * every page (per_page 100) with the gateway offline. This process fills the cache file; a
 * child process (tests/bench/memoryChild.ts) opens the core on it and walks, so the figure is
 * the core's alone, not the generator's or the benchmark runner's. The goal is held to the size
 * after a forced garbage collection (what the core keeps); the size as the walk leaves it, before
 * any collection, is printed beside it (what the process may hold at that moment).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { loadScopeSalt, saltedScope } from '../../electron/core/cache/scopeSalt';
import { freeLoopbackPort } from '../helpers/network';
import { emitGoal, info, note, round, tempDir } from './common';
import { OFFLINE_REPORT_COUNT, fillCache } from './offlineQuery';

const BENCH = 'memory';
const MB = 1024 * 1024;
/** Not a real key: the child never reaches a service with it (nothing listens on its port). */
export const BENCH_KEY = 'bench-offline-key-0000';

export interface MemoryChildReport {
  pages: number;
  reports: number;
  rssStartBytes: number;
  rssAfterWalkBytes: number;
  /** The same before the forced garbage collection: what a user's process may hold at that moment. */
  rssAfterWalkNoGcBytes: number;
  heapUsedAfterWalkBytes: number;
}

/**
 * Runs tests/bench/memoryChild.ts on `dataDir` (filled for BENCH_KEY at `baseUrl`): it walks
 * every `stride`-th page from the first, and the last one.
 */
export async function walkInChild(
  dataDir: string,
  baseUrl: string,
  stride: number,
): Promise<MemoryChildReport> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      join(import.meta.dirname, 'memoryChild.ts'),
      dataDir,
      baseUrl,
      BENCH_KEY,
      String(stride),
    ],
    { maxBuffer: MB },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as MemoryChildReport;
}

export async function runMemory(): Promise<void> {
  const dir = tempDir(BENCH);
  try {
    const dataDir = join(dir.path, 'data');
    // A port nothing listens on: the gateway's first request fails and it serves the cache.
    const baseUrl = `http://127.0.0.1:${await freeLoopbackPort()}`;
    const cache = ReportCache.open(join(dataDir, 'cache.sqlite'));
    try {
      fillCache(cache, saltedScope(loadScopeSalt(dataDir), baseUrl, BENCH_KEY), null);
    } finally {
      cache.close();
    }
    const child = await walkInChild(dataDir, baseUrl, 1);
    if (child.reports !== OFFLINE_REPORT_COUNT) {
      throw new Error(`The walk saw ${child.reports} reports, not ${OFFLINE_REPORT_COUNT}.`);
    }
    note(BENCH, `walked ${child.pages} pages, ${child.reports} reports, all from the cache`);
    const rss = child.rssAfterWalkBytes / MB;
    emitGoal(BENCH, 'rss_after_walk', rss, 'MB', '<= 200 MB', 1);
    info(BENCH, 'rss_after_walk_without_gc', round(child.rssAfterWalkNoGcBytes / MB, 1), 'MB');
    info(BENCH, 'rss_core_started', round(child.rssStartBytes / MB, 1), 'MB');
    info(BENCH, 'heap_used_after_walk', round(child.heapUsedAfterWalkBytes / MB, 1), 'MB');
  } finally {
    dir.remove();
  }
}
