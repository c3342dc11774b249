/**
 * What a full sync leaves for the next run to resume (cache/syncState.ts): its progress and
 * its pass's mark, written together with every page. A run resumes only with both; progress
 * without its mark (a damaged file) is no sync to resume, and a new one starts from page 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportCache, SYNC_ID_META } from '../../electron/core/cache/reportCache';
import { loadSyncState, SYNC_PROGRESS_META } from '../../electron/core/cache/syncState';
import type { Report } from '../../shared/report';
import { runFullSync } from '../../electron/core/cache/fullSync';
import { generateReports, pageOf } from '../fixtures/generatedReports';
import { syncOneAtATime, syncStoppedAt } from '../helpers/syncRuns';

let dir: string;
let cache: ReportCache;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-resume-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
});
afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const STALE: Report = { id: 'zz-stale', url: 'https://gone.example' };
const reports = generateReports(300);

/** A run stopped when it asks for page `stopAt`: what it wrote before stays. */
const stoppedAt = (stopAt: number) => syncStoppedAt(cache, reports, stopAt);

/** The next run, one page at a time: the pages it asked for, and its summary. */
const nextRun = () => syncOneAtATime(cache, reports);

describe('the mark and the progress a stopped sync leaves', () => {
  it('are written with every page, and the next run resumes at the next page of the same pass', async () => {
    cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
    await stoppedAt(3);
    const left = loadSyncState(cache, 'p');
    expect(left?.state).toMatchObject({ pass: 1, nextPage: 3, fetched: 200 });
    expect(left?.mark).toMatch(/^[0-9a-f-]{36}:1$/);
    // The rows of its pages carry the mark, so the resumed pass counts them as seen.
    const { asked, summary } = await nextRun();
    // Page 2 again first: it still ends where the stopped run left off, so nothing shifted.
    expect(asked).toEqual([2, 3]);
    expect(summary).toMatchObject({ passes: 1, complete: true, removed: 1 });
    expect(cache.getReport('p', STALE.id)).toBeNull();
    expect(loadSyncState(cache, 'p')).toBeNull();
  });

  it('a first sync resumed after the service deleted a report it had read reads again: nothing slid past it', async () => {
    // Pages 1–2 read, then the run died; the service deletes report 50 and adds one. Every later
    // report moved back one place, so the first of page 3 is now the last of page 2: resumed at
    // page 3, it would never be read, and nothing cached marks the gap on a first sync.
    await stoppedAt(3);
    const changed = [...reports.filter((report) => report.id !== '50'), ...generateReports(1, 301)];
    const asked: number[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'p',
      concurrency: 1,
      fetchPage: async (page) => (asked.push(page), pageOf(changed, page)),
    });
    // Page 2 again, which no longer ends where the stopped run left off: the pass reads on, and
    // a second one reads the list whole.
    expect(asked).toEqual([2, 3, 1, 2, 3]);
    expect(summary).toMatchObject({ passes: 2, complete: true, removed: 1 });
    // Each page asked, the one read again included.
    expect(summary.requests).toBe(5);
    expect(cache.getReport('p', '50')).toBeNull();
    expect(cache.getReport('p', '201')).not.toBeNull();
    expect(cache.status('p').reportCount).toBe(300);
  });

  it('a page before the resume point that is empty now (the service lost most reports) means the list moved', async () => {
    await stoppedAt(3);
    const fewer = reports.slice(0, 50);
    const asked: number[] = [];
    const summary = await runFullSync({
      cache,
      scope: 'p',
      concurrency: 1,
      fetchPage: async (page) => (asked.push(page), pageOf(fewer, page)),
    });
    expect(asked[0]).toBe(2);
    expect(summary).toMatchObject({ complete: true, removed: 150 });
    expect(cache.status('p').reportCount).toBe(50);
  });

  it('progress without its mark is no sync to resume: a new one reads from page 1 and prunes', async () => {
    cache.putReports('p', [STALE], '2024-01-01T00:00:00Z');
    await stoppedAt(3);
    expect(cache.getMeta('p', SYNC_PROGRESS_META)).not.toBeNull();
    cache.setMeta('p', SYNC_ID_META, null);
    expect(loadSyncState(cache, 'p')).toBeNull();
    const { asked, summary } = await nextRun();
    expect(asked).toEqual([1, 2, 3]);
    expect(summary).toMatchObject({ fetched: 300, passes: 1, complete: true, removed: 1 });
  });

  it('a mark without progress is no sync to resume either', async () => {
    await stoppedAt(2);
    cache.setMeta('p', SYNC_PROGRESS_META, null);
    expect(loadSyncState(cache, 'p')).toBeNull();
    expect((await nextRun()).asked).toEqual([1, 2, 3]);
  });
});
