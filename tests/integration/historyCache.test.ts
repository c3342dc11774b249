/**
 * What the offline copy keeps for history (cache/history.ts, migrations/v6History.ts), on a real
 * SQLite file, held against the plain count (tests/helpers/historyOracle.ts) after every kind of
 * write: new reports, a refetch that changes a report's result, date, project, URL or only its
 * privacy, a report gone (a 404 on read, the user's delete), a sync's pruning, a scope cleared,
 * the whole cache cleared; and the reads' own shape: how generated_at and ids are read, paging,
 * the change log's entries for a URL, and that a short range reads no more than it must.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mulberry32, pick } from '../../electron/demo-service/random';
import { HistoryReads, idOfTie } from '../../electron/core/cache/history';
import { TIE } from '../../electron/core/cache/migrations/v6History';
import { LAST_FULL_SYNC_META, ReportCache } from '../../electron/core/cache/reportCache';
import { REPORT_RESULTS, type Report } from '../../shared/model';
import { HistoryOracle, compareIds } from '../helpers/historyOracle';
import { randomCopy, writtenAs } from '../helpers/historyCopies';
import { cacheDatabase } from '../helpers/cacheDatabase';

const SCOPE = 'profile-a';
const OTHER = 'profile-b';
const AT = '2026-01-01T00:00:00.000Z';
const START = Date.parse('2025-03-01T00:00:00Z');
const DAY = 86_400_000;

let dir: string;
let cache: ReportCache;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-history-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
});

afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The rows history keeps for a scope. */
function historyRows(scope: string) {
  const db = cacheDatabase(cache);
  const count = (table: string) =>
    (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE scope = ?`).get(scope) as { n: number }).n;
  return {
    points: count('history_points'),
    buckets: count('history_buckets'),
    projectBuckets: count('history_project_buckets'),
    clearing: count('history_clearing'),
    pending: count('history_pending'),
  };
}

const vector = (tally: { good: number; decent: number; bad: number }) => [
  tally.good,
  tally.decent,
  tally.bad,
];

/** Every answer of the copy for `scope` equals the plain count over `reports`. */
function expectMatches(reports: readonly Report[], scope = SCOPE, random = mulberry32(reports.length)): void {
  const oracle = new HistoryOracle(reports);
  for (const project of [null, 'alpha', 'beta', '']) {
    const whose = { scope, project };
    expect(cache.history.oldest(whose)).toBe(oracle.oldest(project));
    // Edges anywhere: midnights, whole hours, half hours, odd milliseconds.
    const edges = [START - DAY];
    for (let i = 0; i < 6; i++)
      edges.push(edges[i] + Math.floor(random() * 8 * DAY) + pick(random, [0, 1_800_000, 7, 1]));
    const periods = cache.history.periods(whose, edges);
    edges.slice(1).forEach((end, i) => {
      expect({ project, end, ...periods[i] }).toEqual({
        project,
        end,
        urls: vector(oracle.urlsAt(end, project)),
        generated: vector(oracle.generated(edges[i], end, project)),
      });
    });
    const from = START + Math.floor(random() * 20) * (DAY / 4);
    const to = from + Math.floor(random() * 30) * (DAY / 2);
    expect(cache.history.compare(whose, from, to)).toEqual(oracle.compare(from, to, project));
    const at = pick(random, [from, to]);
    const result = pick(random, [null, ...REPORT_RESULTS]);
    expect(vector(oracle.urlsAt(at, project))).toEqual(cache.history.urlCountsAt(whose, at));
    const standing = cache.history.urlsAt(whose, at, { result, after: '', limit: 1000 }).urls;
    expect(standing.map(({ url, id, result: r }) => ({ url, id, result: r }))).toEqual(
      oracle.standingAt(at, project, result),
    );
  }
  for (const url of new Set(reports.map((report) => report.url))) {
    const { reports: expected } = oracle.timeline(url);
    expect(cache.history.timeline(scope, url).points.map((p) => [p.id, p.result])).toEqual(
      expected.map((r) => [r.id, r.result]),
    );
  }
}

describe('the counts equal a plain count after every kind of write', () => {
  it('new reports, refetched ones that changed, removed ones, pruning, and another scope untouched', () => {
    const random = mulberry32(27);
    const current = new Map<string, Report>();
    const other = randomCopy(mulberry32(5), { start: START, days: 20, reports: 40 });
    cache.putReports(OTHER, other, AT);
    for (let step = 0; step < 60; step++) {
      const roll = random();
      if (roll < 0.5 || current.size < 4) {
        for (const report of randomCopy(random, { start: START, days: 20, reports: 6 })) {
          if (current.has(report.id)) continue;
          current.set(report.id, report);
          cache.putReport(SCOPE, report, AT);
        }
      } else if (roll < 0.8) {
        // A refetch that brings a changed report (the service re-analysed it, or moved it).
        const was = current.get(pick(random, [...current.keys()]))!;
        const changes: Partial<Report>[] = [
          { result: pick(random, ['good', 'decent', 'bad', null] as const) },
          { generated_at: writtenAs(random, START + Math.floor(random() * 20 * 24) * 3_600_000) },
          { project: pick(random, ['alpha', 'beta', null]) },
          { url: `https://site.example/p${Math.floor(random() * 8)}` },
          { privacy: pick(random, [0, 1, 2] as const) },
        ];
        const now = { ...was, ...pick(random, changes) };
        current.set(now.id, now);
        cache.putReports(SCOPE, [now], AT);
      } else if (roll < 0.95) {
        const id = pick(random, [...current.keys()]);
        current.delete(id);
        cache.removeReport(SCOPE, id, { own: random() < 0.5 });
      } else {
        // A sync that saw all but a few: the rest is pruned.
        const seen = [...current.values()].filter(() => random() < 0.8);
        cache.putReports(SCOPE, seen, AT, { syncId: `sync-${step}` });
        cache.pruneUnseen(SCOPE, `sync-${step}`);
        current.clear();
        for (const report of seen) current.set(report.id, report);
      }
      expectMatches([...current.values()], SCOPE, mulberry32(step));
    }
    expectMatches(other, OTHER);
  });

  it('a scope cleared, or the whole cache, holds no history; the other scope keeps its own', () => {
    const mine = randomCopy(mulberry32(1), { start: START, days: 10, reports: 60 });
    const theirs = randomCopy(mulberry32(2), { start: START, days: 10, reports: 60 });
    cache.putReports(SCOPE, mine, AT);
    cache.putReports(OTHER, theirs, AT);
    cache.clearScope(SCOPE);
    // All at once: no point, no sum left behind (not even sums brought back to zero).
    expect(historyRows(SCOPE)).toEqual({ points: 0, buckets: 0, projectBuckets: 0, clearing: 0, pending: 0 });
    expect(historyRows(OTHER).points).toBe(
      theirs.filter((r) => r.result !== null && r.generated_at !== 'not a date').length,
    );
    expectMatches([], SCOPE);
    expectMatches(theirs, OTHER);
    // Written again after the clear, it counts from nothing.
    cache.putReports(SCOPE, mine.slice(0, 20), AT);
    expectMatches(mine.slice(0, 20), SCOPE);
    cache.clearAll();
    expect(historyRows(SCOPE)).toEqual({ points: 0, buckets: 0, projectBuckets: 0, clearing: 0, pending: 0 });
    expect(historyRows(OTHER)).toEqual({ points: 0, buckets: 0, projectBuckets: 0, clearing: 0, pending: 0 });
    expectMatches([], SCOPE);
    expectMatches([], OTHER);
    cache.putReports(OTHER, theirs, AT);
    expectMatches(theirs, OTHER);
  });

  it('the sums are brought up to date before each commit, also when one transaction writes, clears and writes again', () => {
    const mine = randomCopy(mulberry32(3), { start: START, days: 10, reports: 60 });
    const theirs = randomCopy(mulberry32(4), { start: START, days: 10, reports: 60 });
    cache.transaction(() => {
      cache.putReports(SCOPE, mine, AT);
      cache.putReports(OTHER, theirs, AT);
      // The scope's changes made so far in this transaction are not summed into the cleared sums.
      cache.clearCopy(SCOPE);
      cache.putReports(SCOPE, mine.slice(0, 20), AT);
    });
    expect(historyRows(SCOPE).pending).toBe(0);
    expect(historyRows(OTHER).pending).toBe(0);
    expectMatches(mine.slice(0, 20), SCOPE);
    expectMatches(theirs, OTHER);
    cache.transaction(() => {
      cache.putReports(SCOPE, mine, AT);
      cache.clearCopy(SCOPE);
    });
    expect(historyRows(SCOPE)).toEqual({ points: 0, buckets: 0, projectBuckets: 0, clearing: 0, pending: 0 });
    expectMatches([], SCOPE);
  });
});

describe('what counts, and in which order', () => {
  it.each([
    ['2025-03-04T10:20:30Z', '2025-03-04T10:20:30.000Z'],
    ['2025-03-04T10:20:30.123456Z', '2025-03-04T10:20:30.123Z'],
    ['2025-03-04 10:20:30', '2025-03-04T10:20:30.000Z'],
    ['2025-03-04T10:20', '2025-03-04T10:20:00.000Z'],
    ['2025-03-04', '2025-03-04T00:00:00.000Z'],
    ['2025-03-04T10:20:30+05:30', '2025-03-04T04:50:30.000Z'],
    ['2025-03-04T10:20:30 -03:00', '2025-03-04T13:20:30.000Z'],
    ['1969-12-31T23:59:59.999Z', '1969-12-31T23:59:59.999Z'],
  ])('generated_at %s counts at %s', (text, iso) => {
    cache.putReport(SCOPE, { id: '1', url: 'u', result: 'good', generated_at: text }, AT);
    expect(cache.history.oldest({ scope: SCOPE, project: null })).toBe(Date.parse(iso));
  });

  it.each(['now', '2460000.5', 'yesterday', '2025-13-01', '2025-03-04T10:20:30+0100', '', 'not a date'])(
    'generated_at "%s" does not count',
    (text) => {
      cache.putReport(SCOPE, { id: '1', url: 'u', result: 'good', generated_at: text }, AT);
      expect(cache.history.oldest({ scope: SCOPE, project: null })).toBeNull();
      expect(cache.history.timeline(SCOPE, 'u')).toEqual({ points: [], skipped: 1 });
    },
  );

  it('a result other than good, decent or bad does not count; a number as generated_at neither', () => {
    cache.putReports(
      SCOPE,
      [
        { id: '1', url: 'u', result: 'Good' as never, generated_at: '2025-01-01T00:00:00Z' },
        { id: '2', url: 'u', result: null, generated_at: '2025-01-01T00:00:00Z' },
        { id: '3', url: 'u', result: 'bad', generated_at: 1735689600000 as never },
        { id: '4', url: 'u', result: 'decent', generated_at: '2025-01-02T00:00:00Z' },
      ],
      AT,
    );
    expect(cache.history.timeline(SCOPE, 'u')).toMatchObject({ points: [{ id: '4' }], skipped: 3 });
  });

  it('reports of one instant in id order: decimal ids by number, then other ids as text', () => {
    const ids = [
      '10',
      '9',
      '007',
      '7',
      '0',
      'abc',
      'Abc',
      '-x',
      '_y',
      '1000000000000000000001',
      '999999999999999999999',
    ];
    const reports = ids.map((id) => ({
      id,
      url: 'u',
      result: 'good' as const,
      generated_at: '2025-01-01T00:00:00Z',
    }));
    cache.putReports(SCOPE, reports, AT);
    const order = cache.history.timeline(SCOPE, 'u').points.map((point) => point.id);
    expect(order).toEqual([...ids].sort(compareIds));
    expect(order).toEqual([
      '0',
      '7',
      '007',
      '9',
      '10',
      '999999999999999999999',
      '1000000000000000000001',
      '-x',
      'Abc',
      '_y',
      'abc',
    ]);
    // The tie key SQLite makes reads back as the id, leading zeros and all.
    const db = cacheDatabase(cache);
    for (const id of ids) {
      const { tie } = db.prepare(`SELECT ${TIE('t')} AS tie FROM (SELECT ? AS id) AS t`).get(id) as {
        tie: string;
      };
      expect(idOfTie(tie)).toBe(id);
    }
  });

  it('several reports of one instant, written one by one in any order, link in id order', () => {
    const at = '2025-01-01T00:00:00Z';
    const results = { '1': 'good', '2': 'bad', '3': 'decent', '4': 'good' } as const;
    for (const id of ['1', '2', '4', '3']) {
      cache.putReport(
        SCOPE,
        { id, url: 'u', result: results[id as keyof typeof results], generated_at: at },
        AT,
      );
    }
    const points = cache.history.timeline(SCOPE, 'u').points;
    expect(points.map((p) => [p.id, p.previous, p.result])).toEqual([
      ['1', null, 'good'],
      ['2', 'good', 'bad'],
      ['3', 'bad', 'decent'],
      ['4', 'decent', 'good'],
    ]);
    const whose = { scope: SCOPE, project: null };
    expect(cache.history.urlCountsAt(whose, Date.parse(at))).toEqual([1, 0, 0]);
    cache.removeReport(SCOPE, '3');
    expect(cache.history.timeline(SCOPE, 'u').points.map((p) => [p.id, p.previous])).toEqual([
      ['1', null],
      ['2', 'good'],
      ['4', 'bad'],
    ]);
    expect(cache.history.compare(whose, Date.parse(at) - 1, Date.parse(at))).toEqual([
      { url: 'u', before: null, after: 'good', beforeId: null, afterId: '4' },
    ]);
  });

  it('the larger id wins a tie: the URL stands as its larger id says, at that instant and after', () => {
    cache.putReports(
      SCOPE,
      [
        { id: '10', url: 'u', result: 'bad', generated_at: '2025-01-01T00:00:00Z' },
        { id: '9', url: 'u', result: 'good', generated_at: '2025-01-01T00:00:00.000+00:00' },
      ],
      AT,
    );
    const at = Date.parse('2025-01-01T00:00:00Z');
    expect(cache.history.urlCountsAt({ scope: SCOPE, project: null }, at)).toEqual([0, 0, 1]);
    expect(cache.history.urlCountsAt({ scope: SCOPE, project: null }, at - 1)).toEqual([0, 0, 0]);
    expect(
      cache.history.urlsAt({ scope: SCOPE, project: null }, at, { result: null, after: '', limit: 5 }).urls,
    ).toEqual([{ url: 'u', id: '10', result: 'bad', generatedAt: '2025-01-01T00:00:00Z' }]);
  });
});

describe('the reads', () => {
  it('fewer than two edges make no period', () => {
    cache.putReport(SCOPE, { id: '1', url: 'u', result: 'good', generated_at: '2025-01-01T00:00:00Z' }, AT);
    const whose = { scope: SCOPE, project: null };
    expect(cache.history.periods(whose, [])).toEqual([]);
    expect(cache.history.periods(whose, [START])).toEqual([]);
    expect(cache.history.periods(whose, [START - DAY * 90, START])).toEqual([
      { urls: [1, 0, 0], generated: [1, 0, 0] },
    ]);
  });

  it('pages through the URLs at an instant, with the service’s generated_at', () => {
    const reports = Array.from({ length: 25 }, (_, i) => ({
      id: String(i + 1),
      url: `https://p.example/${String(i).padStart(2, '0')}`,
      result: REPORT_RESULTS[i % 3],
      generated_at: `2025-01-0${1 + (i % 5)}T12:00:00.000000Z`,
    }));
    cache.putReports(SCOPE, reports, AT);
    const whose = { scope: SCOPE, project: null };
    const at = Date.parse('2025-02-01T00:00:00Z');
    const pages = [];
    let after = '';
    for (;;) {
      const page = cache.history.urlsAt(whose, at, { result: null, after, limit: 10 });
      pages.push(page.urls.map((url) => url.url));
      if (page.next === null) break;
      after = page.next;
    }
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual(reports.map((report) => report.url));
    const bad = cache.history.urlsAt(whose, at, { result: 'bad', after: '', limit: 8 });
    expect(bad).toEqual({
      urls: reports
        .filter((r) => r.result === 'bad')
        .map((r) => ({ url: r.url, id: r.id, result: 'bad', generatedAt: r.generated_at })),
      next: null,
    });
  });

  it('orders URLs by code point, as SQLite does, also beyond U+FFFF', () => {
    const urls = [
      'https://x.example/\u{1F600}',
      'https://x.example/\u{10000}',
      'https://x.example/\uFF5E',
      'https://x.example/\uE000',
      'https://x.example/ab',
      'https://x.example/a',
      'https://x.example/B',
    ];
    cache.putReports(
      SCOPE,
      urls.map((url, i) => ({
        id: String(i + 1),
        url,
        result: 'bad' as const,
        generated_at: '2025-02-01T00:00:00Z',
      })),
      AT,
    );
    const byCodePoint = [
      'https://x.example/B',
      'https://x.example/a',
      'https://x.example/ab',
      'https://x.example/\uE000',
      'https://x.example/\uFF5E',
      'https://x.example/\u{10000}',
      'https://x.example/\u{1F600}',
    ];
    const whose = { scope: SCOPE, project: null };
    const from = Date.parse('2025-01-01T00:00:00Z');
    const to = Date.parse('2025-03-01T00:00:00Z');
    expect(cache.history.compare(whose, from, to).map((c) => c.url)).toEqual(byCodePoint);
    expect(
      cache.history.urlsAt(whose, to, { result: null, after: '', limit: 9 }).urls.map((u) => u.url),
    ).toEqual(byCodePoint);
    // Without a character beyond U+FFFF, the same order as JavaScript's.
    cache.removeReport(SCOPE, '1');
    cache.removeReport(SCOPE, '2');
    expect(cache.history.compare(whose, from, to).map((c) => c.url)).toEqual(byCodePoint.slice(0, 5));
    // ASCII only (JavaScript's own comparison then): still SQLite's order.
    cache.removeReport(SCOPE, '3');
    cache.removeReport(SCOPE, '4');
    expect(cache.history.compare(whose, from, to).map((c) => c.url)).toEqual(byCodePoint.slice(0, 3));
    expect(
      cache.history.urlsAt(whose, to, { result: null, after: '', limit: 9 }).urls.map((u) => u.url),
    ).toEqual(byCodePoint.slice(0, 3));
  });

  it('the timeline: privacy and project as stored, the previous result, and the reports left out', () => {
    cache.putReports(
      SCOPE,
      [
        {
          id: '3',
          url: 'u',
          result: 'bad',
          generated_at: '2025-02-01T00:00:00Z',
          privacy: 1,
          project: 'alpha',
        },
        { id: '1', url: 'u', result: 'good', generated_at: '2025-01-01T00:00:00Z', privacy: 0 },
        { id: '2', url: 'u', result: 'good', generated_at: 'soon', privacy: 2 },
        { id: '4', url: 'v', result: 'good', generated_at: '2025-01-01T00:00:00Z' },
      ],
      AT,
    );
    expect(cache.history.timeline(SCOPE, 'u')).toEqual({
      points: [
        {
          id: '1',
          result: 'good',
          previous: null,
          generatedAt: '2025-01-01T00:00:00Z',
          privacy: 0,
          project: null,
        },
        {
          id: '3',
          result: 'bad',
          previous: 'good',
          generatedAt: '2025-02-01T00:00:00Z',
          privacy: 1,
          project: 'alpha',
        },
      ],
      skipped: 1,
    });
    expect(cache.history.timeline(SCOPE, 'nowhere')).toEqual({ points: [], skipped: 0 });
  });

  it('the change log’s entries for one URL: its reports’, and those of reports since removed or moved', () => {
    cache.setMeta(SCOPE, LAST_FULL_SYNC_META, AT);
    const u = { url: 'https://u.example/"quoted"', generated_at: '2025-01-01T00:00:00Z' };
    cache.putReports(
      SCOPE,
      [
        { id: '1', result: 'good', ...u },
        { id: '2', result: 'good', ...u },
        { id: '3', result: 'bad', url: 'v', generated_at: u.generated_at },
      ],
      AT,
    );
    cache.putReport(SCOPE, { id: '1', result: 'bad', ...u }, AT);
    cache.putReport(SCOPE, { id: '2', result: 'good', ...u, url: 'elsewhere' }, AT);
    cache.removeReport(SCOPE, '1', { at: AT });
    cache.putReport(SCOPE, { id: '4', result: 'good', ...u }, AT);
    const entries = cache.changes.forReports(SCOPE, ['4'], u.url);
    expect(entries.map((entry) => [entry.id, entry.kind])).toEqual([
      ['4', 'added'],
      ['1', 'removed'],
      ['2', 'changed'],
      ['1', 'changed'],
      ['2', 'added'],
      ['1', 'added'],
    ]);
    expect(cache.changes.forReports(SCOPE, [], 'nowhere')).toEqual([]);
  });

  it('a short range reads only its part of the copy: every statement searches an index, none scans a table', () => {
    cache.putReports(SCOPE, randomCopy(mulberry32(3), { start: START, days: 30, reports: 300 }), AT);
    const run: string[] = [];
    const db = cacheDatabase(cache);
    const reads = new HistoryReads((sql) => {
      run.push(sql);
      return db.prepare(sql);
    });
    const whose = { scope: SCOPE, project: 'alpha' };
    const from = START + 10 * DAY + 1_800_000;
    reads.periods(whose, [from, from + DAY, from + 2 * DAY]);
    reads.periods({ ...whose, project: null }, [from, from + 7 * DAY]);
    reads.compare(whose, from, from + DAY);
    reads.urlsAt(whose, from, { result: 'good', after: 'https://site.example/p1', limit: 3 });
    reads.timeline(SCOPE, 'https://site.example/p1');
    reads.oldest(whose);
    expect(run.length).toBeGreaterThan(8);
    for (const sql of new Set(run)) {
      const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
      const named = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map(([, name]) => [name, 0]));
      const args = sql.includes('@') ? [named] : Array.from(sql.matchAll(/\?/g), () => 0);
      const plan = (explain.all(...args) as { detail: string }[]).map((row) => row.detail);
      expect({ sql, scans: plan.filter((line) => /^SCAN (history|reports)/.test(line)) }).toEqual({
        sql,
        scans: [],
      });
    }
  });
});
