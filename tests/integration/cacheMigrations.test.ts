/**
 * Upgrading the cache file from every older schema version (electron/core/cache/migrations).
 * For each version v below the newest, a real SQLite file is brought to v by applying the
 * first v migrations (v = 0: an empty file, as a new install finds it), rows are written the
 * way that version's code wrote them, and ReportCache.open upgrades it. The upgraded file must
 * be at the newest version, intact, keep every row, and answer list queries (search, filters,
 * sorts, pages) exactly like a cache created fresh with the same reports.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { idSortKey, projectOf, recordJson, textOrNull } from '../../electron/core/cache/records';
import { LAST_FULL_SYNC_META, MIGRATIONS, ReportCache } from '../../electron/core/cache/reportCache';
import { normalizeListQuery, type ListQuery, type Report } from '../../shared/report';
import { DEMO_PROJECTS } from '../../electron/demo-service/seed';
import { serviceReports } from '../helpers/countedData';
import { HistoryOracle } from '../helpers/historyOracle';

const FETCHED_AT = '2025-06-01T12:00:00.000Z';
const SCOPE = 'profile-a';
const OTHER_SCOPE = 'profile-b';
/** The schema version at which each table first exists (1-based, as PRAGMA user_version counts). */
const SYNC_LEASES_SINCE = 2;

/** Records whose ids, filters and URLs are easy to get wrong in a rebuilt index. */
const TRICKY: Report[] = [
  { id: 'abc', url: 'https://EXAMPLE.com/Ünïcode/中文?q=%25_x', result: 'good', project: 'R&D' },
  { id: '900002', url: 'https://a.example/say-"hi"-now', result: null, project: 'R&D <core>' },
  { id: '900003', url: 'https://b.example/100%_sure', result: 'bad', project: null },
];

const REPORTS: Record<string, Report[]> = {
  [SCOPE]: [...serviceReports(250, 31), ...TRICKY],
  [OTHER_SCOPE]: serviceReports(120, 32),
};

const QUERIES: ListQuery[] = [
  {},
  { sort: 'asc' },
  { sort_by: 'url', sort: 'desc', per_page: 50, page: 2 },
  { sort_by: 'generated_at', sort: 'asc' },
  { sort_by: 'result', sort: 'desc', page: 3 },
  { search: 'https' },
  { search: 'example', sort_by: 'url', sort: 'asc' },
  { search: 'ünï' },
  { search: '%_' },
  { search: 'co' },
  { search: 'zz-no-such' },
  { result: 'good' },
  { result: 'bad', sort_by: 'generated_at' },
  { project: 'R&D' },
  { project: 'R&D <core>', search: 'say' },
  { search: 'https', result: 'decent', sort_by: 'url', sort: 'desc' },
];

/** A file at schema version `version`, with rows written as that version's code wrote them. */
function fileAtVersion(file: string, version: number): void {
  if (version === 0) {
    writeFileSync(file, '');
    return;
  }
  const db = new Database(file);
  try {
    for (const sql of MIGRATIONS.slice(0, version)) db.exec(sql);
    db.pragma(`user_version = ${version}`);
    const insert = db.prepare(
      `INSERT INTO reports (scope, id, id_sort, url, url_lower, result, project, generated_at,
                            fetched_at, last_seen_sync, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (const [scope, reports] of Object.entries(REPORTS)) {
        for (const report of reports) {
          const id = String(report.id);
          insert.run(
            scope,
            id,
            idSortKey(id),
            report.url,
            report.url.toLowerCase(),
            textOrNull(report.result),
            projectOf(report.project),
            textOrNull(report.generated_at),
            FETCHED_AT,
            'sync-1',
            recordJson(report),
          );
        }
        db.prepare('INSERT INTO accounts (scope, record, fetched_at) VALUES (?, ?, ?)').run(
          scope,
          JSON.stringify({ email: `${scope}@example.com` }),
          FETCHED_AT,
        );
        db.prepare('INSERT INTO meta (scope, key, value) VALUES (?, ?, ?)').run(
          scope,
          LAST_FULL_SYNC_META,
          FETCHED_AT,
        );
      }
      if (version >= SYNC_LEASES_SINCE) {
        db.prepare('INSERT INTO sync_leases (scope, owner, expires_at) VALUES (?, ?, ?)').run(
          SCOPE,
          'owner-1',
          42,
        );
      }
    })();
  } finally {
    db.close();
  }
}

let dir: string;
let fresh: ReportCache;

/** The upgraded file's history equals the fresh cache's and the plain count over `reports`. */
function expectSameHistory(cache: ReportCache, scope: string, reports: Report[]): void {
  const oracle = new HistoryOracle(reports);
  // Weekly edges at 05:30 UTC: each reached through the hours after a midnight (the upgrade's hour sums).
  const edges = Array.from(
    { length: 60 },
    (_, week) => Date.parse('2024-05-01T05:30:00Z') + week * 7 * 86_400_000,
  );
  for (const project of [null, ...DEMO_PROJECTS.slice(0, 2), '']) {
    const whose = { scope, project };
    const answers = (from: ReportCache) => ({
      oldest: from.history.oldest(whose),
      periods: from.history.periods(whose, edges),
      compare: from.history.compare(whose, edges[0], edges[59]),
    });
    expect(answers(cache)).toEqual(answers(fresh));
    const periods = cache.history.periods(whose, edges);
    edges.slice(1).forEach((end, i) => {
      const urls = oracle.urlsAt(end, project);
      const generated = oracle.generated(edges[i], end, project);
      expect(periods[i]).toEqual({
        urls: [urls.good, urls.decent, urls.bad],
        generated: [generated.good, generated.decent, generated.bad],
      });
    });
    expect(cache.history.compare(whose, edges[0], edges[40])).toEqual(
      oracle.compare(edges[0], edges[40], project),
    );
  }
  const url = reports[7].url;
  expect(cache.history.timeline(scope, url)).toEqual(fresh.history.timeline(scope, url));
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-migrations-'));
  fresh = ReportCache.open(join(dir, 'fresh.sqlite'));
  for (const [scope, reports] of Object.entries(REPORTS)) fresh.putReports(scope, reports, FETCHED_AT);
});

afterEach(() => {
  fresh.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('upgrading the cache file from every older schema version', () => {
  it('has a schema version to upgrade from (the list is not empty)', () => {
    expect(MIGRATIONS.length).toBeGreaterThanOrEqual(3);
  });

  for (let version = 0; version < MIGRATIONS.length; version++) {
    it(`opens a file at version ${version}: newest version, intact, rows kept and listed like a fresh cache`, () => {
      const file = join(dir, `v${version}.sqlite`);
      fileAtVersion(file, version);

      const cache = ReportCache.open(file);
      try {
        // A new file has no rows yet: they are written by today's code once it is open.
        if (version === 0) {
          for (const [scope, reports] of Object.entries(REPORTS))
            cache.putReports(scope, reports, FETCHED_AT);
        }
        const check = new Database(file, { readonly: true });
        try {
          expect(check.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
        } finally {
          check.close();
        }
        expect(cache.integrityCheck()).toBe('ok');

        for (const [scope, reports] of Object.entries(REPORTS)) {
          expect(cache.status(scope).reportCount).toBe(reports.length);
          expect(cache.getReport(scope, 'abc')?.report).toEqual(fresh.getReport(scope, 'abc')?.report);
          expect(cache.projects(scope)).toEqual(fresh.projects(scope));
          expect(cache.resultCounts(scope, normalizeListQuery({ search: 'example' }))).toEqual(
            fresh.resultCounts(scope, normalizeListQuery({ search: 'example' })),
          );
          for (const query of QUERIES) {
            const q = normalizeListQuery(query);
            expect({ query, page: cache.query(scope, q).page }).toEqual({
              query,
              page: fresh.query(scope, q).page,
            });
          }
        }
        // The fresh cache answers these queries with rows, so the comparison above compares something.
        expect(fresh.query(SCOPE, normalizeListQuery({ search: 'ünï' })).page.total).toBe(1);
        expect(fresh.query(SCOPE, normalizeListQuery({ project: 'R&D' })).page.total).toBe(1);

        if (version > 0) {
          expect(cache.getAccount(SCOPE)?.account).toEqual({ email: `${SCOPE}@example.com` });
          expect(cache.getMeta(OTHER_SCOPE, LAST_FULL_SYNC_META)).toBe(FETCHED_AT);
          // Rows the older version marked as seen by a sync stay marked: a resumed sync keeps them.
          expect(cache.pruneUnseen(SCOPE, 'sync-1')).toBe(0);
        }
        if (version >= SYNC_LEASES_SINCE)
          expect(cache.leases.held(SCOPE)).toEqual({ owner: 'owner-1', expiresAt: 42 });

        // History (v6) is filled from the rows the file had, as a fresh cache's triggers keep it.
        for (const [scope, reports] of Object.entries(REPORTS)) expectSameHistory(cache, scope, reports);

        // Rows written after the upgrade are searched and counted with the old ones.
        cache.putReport(
          SCOPE,
          { id: '999999', url: 'https://after.example/ünïque', result: 'good' },
          FETCHED_AT,
        );
        expect(cache.query(SCOPE, normalizeListQuery({ search: 'ünï' })).page.total).toBe(2);
        fresh.putReport(
          SCOPE,
          { id: '999999', url: 'https://after.example/ünïque', result: 'good' },
          FETCHED_AT,
        );
        // …and history keeps counting from what the upgrade filled in: a report that moves a URL.
        const moved = {
          ...REPORTS[SCOPE][5],
          id: '999998',
          result: 'bad' as const,
          generated_at: '2025-06-01T00:00:00Z',
        };
        cache.putReport(SCOPE, moved, FETCHED_AT);
        fresh.putReport(SCOPE, moved, FETCHED_AT);
        expectSameHistory(cache, SCOPE, [...REPORTS[SCOPE], moved]);
        expect(cache.integrityCheck()).toBe('ok');
      } finally {
        cache.close();
      }
    });
  }
});
