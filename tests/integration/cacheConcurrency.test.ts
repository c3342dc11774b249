/**
 * Several processes on one cache file, as when the app is open and a CLI sync runs: reads
 * that turn into writes must wait for each other (IMMEDIATE transactions + busy_timeout), and
 * a brand-new file must be migrated exactly once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ReportCache } from '../../electron/core/cache/reportCache';

const WRITER = join(__dirname, '../fixtures/cacheWriterChild.ts');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-concurrency-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function runWriter(
  file: string,
  scope: string,
  rounds: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, scope, String(rounds)]);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

it('lets several processes create and write one new cache file at the same time', async () => {
  const file = join(dir, 'cache.sqlite');
  const runs = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((scope) => runWriter(file, scope, 15)));
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
