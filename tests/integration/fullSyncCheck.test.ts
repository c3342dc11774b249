/**
 * A fresh full sync (the daily read) first checks the whole offline copy (cache/fullSync.ts):
 * damage in pages that neither its reads nor its writes would touch is found before the first
 * page is asked for, the copy set aside and the run told to start again (`cache_reset`). A
 * resumed sync follows a run that died, and the file was checked when opened after it: it does
 * not check the whole copy again.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runFullSync } from '../../electron/core/cache/fullSync';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { loadSyncState } from '../../electron/core/cache/syncState';
import { generateReports, pageOf } from '../fixtures/generatedReports';
import { overwriteMiddle } from '../helpers/damage';
import { rejectionOf } from '../helpers/failures';
import { syncOneAtATime, syncStoppedAt } from '../helpers/syncRuns';

let dir: string;
let file: string;
const opened: ReportCache[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-sync-check-'));
  file = join(dir, 'cache.sqlite');
});
afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = () => {
  const cache = ReportCache.open(file);
  opened.push(cache);
  return cache;
};
const reports = generateReports(250);
const setAside = () =>
  readdirSync(dir).filter((name) => name.includes('.corrupt-') && !/-(wal|shm)$/.test(name));

describe('the whole-copy check of a full sync', () => {
  it('a fresh sync finds damage its reads and writes would not touch, before it asks for a page', async () => {
    // Another profile's rows fill the file's middle; the profile synced has its own few.
    const first = open();
    first.putReports('other', generateReports(3000, 10_000), '2026-01-01T00:00:00Z');
    await syncOneAtATime(first, reports);
    first.close();
    opened.length = 0;
    overwriteMiddle(file, 16_384);

    const cache = open();
    const asked: number[] = [];
    const failure = await rejectionOf(
      runFullSync({
        cache,
        scope: 'p',
        concurrency: 1,
        fetchPage: async (page) => (asked.push(page), pageOf(reports, page)),
      }),
    );
    expect(failure).toMatchObject({ reason: 'cache_reset' });
    expect(asked).toEqual([]);
    expect(setAside()).toHaveLength(1);
    // The next run starts on the new copy, from page 1.
    expect((await syncOneAtATime(cache, reports)).summary).toMatchObject({ fetched: 250, complete: true });
  });

  it('runs once for a fresh sync, and not for a resumed one', async () => {
    const cache = open();
    const check = vi.spyOn(cache, 'assertIntact');
    await syncStoppedAt(cache, reports, 2);
    expect(check).toHaveBeenCalledTimes(1);
    expect(loadSyncState(cache, 'p')).not.toBeNull();
    const { asked, summary } = await syncOneAtATime(cache, reports);
    // The page before the resume point again, then on: no whole-copy check.
    expect(asked).toEqual([1, 2, 3]);
    expect(summary).toMatchObject({ complete: true });
    expect(check).toHaveBeenCalledTimes(1);
  });
});
