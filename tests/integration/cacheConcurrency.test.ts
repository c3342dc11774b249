/**
 * Several processes on one cache file, as when the app is open and a CLI sync runs: reads
 * that turn into writes must wait for each other (IMMEDIATE transactions + busy_timeout), and
 * a brand-new file must be migrated exactly once, and its switch to WAL must survive processes
 * that start on it at the same instant.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ReportCache } from '../../electron/core/cache/reportCache';

const WRITER = join(__dirname, '../fixtures/cacheWriterChild.ts');
const OPENER = join(__dirname, '../fixtures/cacheOpenChild.ts');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-concurrency-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface ChildRun {
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed, so far. */
  output: () => string;
  finished: Promise<{ code: number | null; output: string }>;
}

function startChild(fixture: string, args: string[]): ChildRun {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args]);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const finished = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
  return { child, output: () => output, finished };
}

it('lets several processes create and write one new cache file at the same time', async () => {
  const file = join(dir, 'cache.sqlite');
  const runs = await Promise.all(
    ['a', 'b', 'c', 'd', 'e'].map((scope) => startChild(WRITER, [file, scope, '15']).finished),
  );
  for (const run of runs) expect(run, run.output).toMatchObject({ code: 0 });
  const cache = ReportCache.open(file);
  try {
    expect(cache.integrityCheck()).toBe('ok');
    for (const scope of ['a', 'b', 'c', 'd', 'e']) {
      expect(cache.status(scope).reportCount).toBe(50);
      expect(cache.getMeta(scope, 'round')).toBe('14');
    }
  } finally {
    cache.close();
  }
}, 60_000);

// Turning a new file into WAL needs its exclusive lock. When two processes both hold the shared
// lock and want it, SQLite returns SQLITE_BUSY at once to one of them instead of calling the
// busy handler, which would deadlock (https://www.sqlite.org/c3ref/busy_handler.html). Without
// a retry, about one round in ten failed here with six processes; CI once failed the same way.
it('lets several processes start on a new data dir at the same instant, round after round', async () => {
  const processes = 6;
  const rounds = 40;
  const children = Array.from({ length: processes }, () => startChild(OPENER, [dir, String(rounds), '60']));
  // Every child has loaded tsx and the cache code before the first round's moment is set.
  for (const { child, output } of children) {
    while (!output().includes('ready')) await once(child.stdout, 'data');
  }
  const firstStart = Date.now() + 100;
  for (const { child } of children) child.stdin.end(String(firstStart));
  for (const run of await Promise.all(children.map((child) => child.finished))) {
    expect(run.code, run.output).toBe(0);
    expect(run.output.trim().split('\n')).toEqual(['ready', ...Array<string>(rounds).fill('ok')]);
  }
}, 60_000);
