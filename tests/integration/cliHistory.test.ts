/**
 * `cache history`, `cache timeline` and `cache compare` as a user runs them: a profile synced
 * from the reference service (whose seed gives URLs several reports over months), then the
 * service stopped and every request counted, so the answers come from the offline copy alone.
 * The numbers are held against the plain count over the copy (tests/helpers/historyOracle.ts);
 * the JSON shapes are the README's; every bad value is exit 2 with one sentence, an unknown URL
 * exit 4. Also `cache changes --since` reading a date as local midnight.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import type { Report } from '../../shared/model';
import { runCliCaptured } from '../helpers/cli';
import { HistoryOracle } from '../helpers/historyOracle';
import { testKeyStore } from '../helpers/keychain';
import { cacheDatabase, cachedReports } from '../helpers/cacheDatabase';

const NOW = new Date('2026-11-23T09:00:00.000Z');
const dataDir = mkdtempSync(join(tmpdir(), 'report-desk-cli-history-'));
const keychain = testKeyStore();
let service: DemoService;
let requests = 0;
let copy: Report[] = [];
let oracle: HistoryOracle;

const cli = (args: string[], env: Record<string, string | undefined> = {}, stdin?: string) =>
  runCliCaptured(args, {
    stdin,
    env: {
      REPORT_DESK_DATA_DIR: dataDir,
      REPORT_DESK_RETRY_BASE_MS: '1',
      REPORT_DESK_API_KEY: undefined,
      ...env,
    },
    fetch: (input, init) => {
      requests += 1;
      return fetch(input, init);
    },
    keyStore: keychain.store,
    now: () => NOW,
  });

const json = (text: string) => JSON.parse(text) as unknown;

beforeAll(async () => {
  service = await startDemoService({ now: () => NOW });
  expect(
    (await cli(['profiles', 'add', 'Demo', '--base-url', service.baseUrl], {}, service.apiKey)).code,
  ).toBe(0);
}, 30_000);

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('before the first full sync', () => {
  it('history and compare print an empty history and say how to fill it; timeline is exit 4', async () => {
    const text = await cli(['cache', 'history']);
    expect(text).toEqual({
      code: 0,
      stdout:
        'The offline copy of the profile "Demo" was never read in full, so it has no history yet; fill it with "report-desk cache sync".\n',
      stderr: '',
    });
    const asJson = await cli(['cache', 'history', '--json', '--by', 'month', '--project', 'shop']);
    expect(json(asJson.stdout)).toEqual({ by: 'month', project: 'shop', periods: [] });
    expect(asJson.stderr).toMatch(/never read in full.*report-desk cache sync/);
    const compare = await cli(['cache', 'compare', '--from', '2026-01-01', '--to', '2026-02-01', '--json'], {
      TZ: 'UTC',
    });
    expect(json(compare.stdout)).toEqual({
      from: '2026-01-01T00:00:00+00:00',
      to: '2026-02-01T00:00:00+00:00',
      changes: [],
    });
    const timeline = await cli(['cache', 'timeline', 'https://www.contoso.com']);
    expect(timeline.code).toBe(4);
    expect(timeline.stderr).toMatch(
      /never read in full, so it has no history yet; fill it with "report-desk cache sync"/,
    );
  });
});

describe('from the offline copy, with the service stopped', () => {
  beforeAll(async () => {
    expect((await cli(['cache', 'sync'])).code).toBe(0);
    await service.stop();
    const cache = ReportCache.open(join(dataDir, 'cache.sqlite'));
    try {
      const scope = cache.scopes().find((candidate) => cache.status(candidate).reportCount > 0)!;
      copy = cachedReports(cache, scope);
    } finally {
      cache.close();
    }
    oracle = new HistoryOracle(copy);
    requests = 0;
  });

  it('the seed gives a history that moves: URLs with several reports, results that changed', () => {
    const perUrl = new Map<string, number>();
    for (const report of copy) perUrl.set(report.url, (perUrl.get(report.url) ?? 0) + 1);
    expect(copy.length).toBe(300);
    expect([...perUrl.values()].filter((n) => n >= 3).length).toBeGreaterThan(30);
    const moved = [...perUrl.keys()].filter((url) => oracle.timeline(url).transitions.length > 0);
    expect(moved.length).toBeGreaterThan(20);
  });

  it('cache history --json: the README’s shape, each week’s numbers the plain count’s', async () => {
    const run = await cli(['cache', 'history', '--json'], { TZ: 'America/New_York' });
    expect(run.code, run.stderr).toBe(0);
    const answer = json(run.stdout) as {
      by: string;
      project: null;
      periods: { start: string; end: string; urls: object; generated: object }[];
    };
    expect(Object.keys(answer)).toEqual(['by', 'project', 'periods']);
    expect(answer.by).toBe('week');
    expect(answer.periods.length).toBeGreaterThan(50);
    for (const period of answer.periods) {
      expect(Object.keys(period)).toEqual(['start', 'end', 'urls', 'generated']);
      expect(period.start).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00-0[45]:00$/);
      expect(period.urls).toEqual(oracle.urlsAt(Date.parse(period.end), null));
      expect(period.generated).toEqual(
        oracle.generated(Date.parse(period.start), Date.parse(period.end), null),
      );
    }
    // From the period of the oldest report to the one holding now.
    expect(Date.parse(answer.periods[0].start)).toBeLessThanOrEqual(oracle.oldest(null)!);
    expect(Date.parse(answer.periods[1].start)).toBeGreaterThan(oracle.oldest(null)!);
    expect(Date.parse(answer.periods.at(-1)!.end)).toBeGreaterThan(NOW.getTime());
  });

  it('the text form: a table and one line comparing the last period with the first', async () => {
    const run = await cli(
      ['cache', 'history', '--by', 'month', '--since', '2026-09-01', '--project', 'shop'],
      { TZ: 'Asia/Kolkata' },
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'History of the profile "Demo", project "shop", by month (local time Asia/Kolkata; URLs by their result at the end of each month, and the reports generated in it):',
    );
    expect(lines[1]).toMatch(/^MONTH +GOOD +DECENT +BAD +REPORTS \(GOOD\/DECENT\/BAD\)$/);
    expect(lines.slice(2, -1).map((line) => line.split(/ +/)[0])).toEqual(['2026-09', '2026-10', '2026-11']);
    const at = (day: string) => Date.parse(`${day}T00:00:00+05:30`);
    const first = oracle.urlsAt(at('2026-10-01'), 'shop');
    const last = oracle.urlsAt(at('2026-12-01'), 'shop');
    const sign = (n: number) => (n > 0 ? `+${n}` : String(n));
    expect(lines.at(-1)).toBe(
      `From 2026-09 to 2026-11: good ${first.good} → ${last.good} (${sign(last.good - first.good)}), decent ${first.decent} → ${last.decent} (${sign(last.decent - first.decent)}), bad ${first.bad} → ${last.bad} (${sign(last.bad - first.bad)}).`,
    );
  });

  it('cache timeline URL: every report oldest first, values as the service sent them, and the changes', async () => {
    const url = [...new Set(copy.map((r) => r.url))].find((u) => oracle.timeline(u).transitions.length >= 2)!;
    const run = await cli(['cache', 'timeline', url, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const { reports, transitions } = oracle.timeline(url);
    const sent = new Map(copy.map((report) => [report.id, report]));
    expect(json(run.stdout)).toEqual({
      url,
      reports: reports.map((r) => ({
        id: r.id,
        generated_at: r.generatedAt,
        result: r.result,
        privacy: sent.get(r.id)!.privacy,
      })),
      transitions,
    });
    expect(Object.keys((json(run.stdout) as { reports: object[] }).reports[0])).toEqual([
      'id',
      'generated_at',
      'result',
      'privacy',
    ]);
    const text = await cli(['cache', 'timeline', url]);
    expect(text.stdout).toContain(
      `Reports of ${url} in the offline copy of the profile "Demo", oldest first`,
    );
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(
      `${transitions.length} of ${reports.length} reports changed the result.`,
    );
    expect(text.stdout).toContain(`was ${transitions[0].from}`);
  });

  it('cache compare: every URL whose result differs, sorted by URL, with the reports before and after', async () => {
    const run = await cli(
      ['cache', 'compare', '--from', '2026-03-01', '--to', '2026-10-01T12:00', '--json'],
      { TZ: 'Europe/Berlin' },
    );
    expect(run.code, run.stderr).toBe(0);
    const from = Date.parse('2026-03-01T00:00:00+01:00');
    const to = Date.parse('2026-10-01T12:00:00+02:00');
    const expected = oracle.compare(from, to, null);
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.some((change) => change.before === null)).toBe(true);
    expect(json(run.stdout)).toEqual({
      from: '2026-03-01T00:00:00+01:00',
      to: '2026-10-01T12:00:00+02:00',
      changes: expected,
    });
    const text = await cli(
      ['cache', 'compare', '--from', '2026-03-01', '--to', '2026-10-01T12:00', '--project', 'docs'],
      { TZ: 'Europe/Berlin' },
    );
    const docs = oracle.compare(from, to, 'docs');
    expect(text.stdout.trimEnd().split('\n')).toHaveLength(docs.length === 0 ? 1 : docs.length + 3);
    const none = await cli(['cache', 'compare', '--from', '2026-11-23T09:00Z', '--to', '2026-11-23T09:00Z']);
    expect(none.stdout).toMatch(
      /^No URL's result differs between 2026-11-23T09:00:00\+00:00 and 2026-11-23T09:00:00\+00:00 \(the profile "Demo", all projects\)\.\n$/,
    );
  });

  it('an unknown URL is exit 4 with one sentence', async () => {
    const run = await cli(['cache', 'timeline', 'https://www.contoso.com/not-in-the-copy']);
    expect(run).toEqual({
      code: 4,
      stdout: '',
      stderr:
        'The offline copy of the profile "Demo" holds no report of https://www.contoso.com/not-in-the-copy with a readable date and result; check the URL (it must match exactly), or fill it with "report-desk cache sync".\n',
    });
  });

  it.each([
    [
      ['cache', 'history', '--by', 'year'],
      '--by must be one of day, week, month (got "year").',
      'cache history',
    ],
    [
      ['cache', 'history', '--since', '2026-11-01', '--until', '2026-10-01'],
      '--since must be before --until.',
      'cache history',
    ],
    [
      ['cache', 'history', '--since', '2026-10-01', '--until', '2026-10-01'],
      '--since must be before --until.',
      'cache history',
    ],
    [
      ['cache', 'history', '--since', '2026-02-30'],
      '--since "2026-02-30" is not a time: give a date',
      'cache history',
    ],
    [
      ['cache', 'history', '--until', 'next week'],
      '--until "next week" is not a time: give a date',
      'cache history',
    ],
    [['cache', 'history', '--since', '30y'], '--since "30y" is not a time: give a date', 'cache history'],
    [
      ['cache', 'compare', '--from', '2026-10-02', '--to', '2026-10-01'],
      '--from must not be after --to.',
      'cache compare',
    ],
    [
      ['cache', 'compare', '--from', '2026-10-01T25:00', '--to', '1d'],
      '--from "2026-10-01T25:00" is not a time: give a date',
      'cache compare',
    ],
    [['cache', 'compare', '--from', '2026-10-01'], 'cache compare needs --to TIME.', 'cache compare'],
    [['cache', 'timeline'], 'cache timeline needs URL.', 'cache timeline'],
    [
      ['cache', 'changes', '--since', '2026-13-01'],
      '--since "2026-13-01" is not a time: give a date',
      'cache changes',
    ],
  ])('%j is exit 2 with one sentence', async (args, sentence, topic) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.startsWith(sentence)).toBe(true);
    expect(run.stderr.endsWith(` Run "report-desk help ${topic}" for usage.\n`)).toBe(true);
    expect(run.stderr.split('\n')).toHaveLength(2);
  });

  it('a TZ that names no time zone is exit 2 too', async () => {
    const run = await cli(['cache', 'history'], { TZ: 'Mars/Olympus' });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(
      /^TZ is "Mars\/Olympus", which is not a time zone this computer knows; set it to a name such as Europe\/Berlin, or unset it\./,
    );
  });

  it('cache changes --since reads a date as its local midnight', async () => {
    const utc = await cli(['cache', 'changes', '--since', '2026-11-24'], { TZ: 'UTC' });
    expect(utc.stdout).toContain('since 2026-11-24 00:00 UTC');
    const kolkata = await cli(['cache', 'changes', '--since', '2026-11-24'], { TZ: 'Asia/Kolkata' });
    expect(kolkata.stdout).toContain('since 2026-11-23 18:30 UTC');
    const newYork = await cli(['cache', 'changes', '--since', '2026-11-24T08:00', '--json'], {
      TZ: 'America/New_York',
    });
    expect(newYork.code).toBe(0);
  });

  it('asked nothing of the network', () => {
    expect(requests).toBe(0);
  });

  it('removing the profile takes its history along', async () => {
    expect((await cli(['profiles', 'remove', 'Demo', '--yes'])).code).toBe(0);
    const cache = ReportCache.open(join(dataDir, 'cache.sqlite'));
    try {
      const db = cacheDatabase(cache);
      const count = (table: string) =>
        (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect([
        count('reports'),
        count('history_points'),
        count('history_buckets'),
        count('history_project_buckets'),
      ]).toEqual([0, 0, 0, 0]);
    } finally {
      cache.close();
    }
  });
});
