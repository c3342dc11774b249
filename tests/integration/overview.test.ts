/**
 * The overview's numbers from a real SQLite cache: counts per (project, result) for the list's
 * filters equal a plain count over the same reports, with and without a search (the two paths
 * of ReportCache.resultCounts), and follow deletes and changes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { normalizeListQuery, type Report } from '../../shared/report';
import { generateReports } from '../fixtures/generatedReports';

let dir: string;
let cache: ReportCache;
const AT = '2026-11-23T12:00:00.000Z';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reportdesk-overview-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
});
afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same numbers by brute force over the records. */
function expected(reports: Report[], keep: (r: Report) => boolean) {
  const counts = new Map<string, number>();
  for (const r of reports.filter(keep)) {
    const key = `${r.project ?? ''}|${r.result ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].map(([key, n]) => `${key}|${n}`).sort();
}

function actual(filters: { search?: string; project?: string; result?: 'good' | 'decent' | 'bad' }) {
  return cache
    .resultCounts('p1', normalizeListQuery(filters))
    .map((row) => `${row.project}|${row.result}|${row.n}`)
    .sort();
}

describe('ReportCache.resultCounts', () => {
  it('counts per project and result for every filter, with and without a search', () => {
    const reports = generateReports(500);
    reports[3] = { ...reports[3], project: null };
    reports[4] = { ...reports[4], result: null };
    cache.putReports('p1', reports, AT);
    cache.putReports('other-scope', generateReports(50), AT);

    expect(actual({})).toEqual(expected(reports, () => true));
    expect(actual({ result: 'bad' })).toEqual(expected(reports, (r) => r.result === 'bad'));
    expect(actual({ project: 'project-2' })).toEqual(expected(reports, (r) => r.project === 'project-2'));
    // A 3+ character search goes through the trigram index, a short one scans.
    expect(actual({ search: 'SITE3' })).toEqual(expected(reports, (r) => r.url.includes('site3')));
    expect(actual({ search: '/1' })).toEqual(expected(reports, (r) => r.url.includes('/1')));
    expect(actual({ search: 'site1', result: 'good', project: 'project-1' })).toEqual(
      expected(reports, (r) => r.url.includes('site1') && r.result === 'good' && r.project === 'project-1'),
    );
  });

  it('follows deletes and changed results', () => {
    const reports = generateReports(30);
    cache.putReports('p1', reports, AT);
    cache.removeReport('p1', '1');
    const changed = { ...reports[1], result: 'bad' as const };
    cache.putReport('p1', changed, AT);
    const now = [changed, ...reports.slice(2)];
    expect(actual({})).toEqual(expected(now, () => true));
    expect(actual({ search: 'site' })).toEqual(expected(now, () => true));
  });
});
