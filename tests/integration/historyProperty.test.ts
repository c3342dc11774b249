/**
 * The property of issue 27: for random copies (ties on generated_at, equal timestamps, several
 * projects, results that change and stay, reports history leaves out), random ranges, projects
 * and period kinds, in time zones east and west of UTC with a daylight-saving change inside the
 * range, the numbers `report-desk cache history --json` and `cache compare --json` print equal a
 * count written plainly here: the periods found by walking the clock in quarter hours and
 * reading each one's local date (Intl), the counts from the reports one by one
 * (tests/helpers/historyOracle.ts). Run through the CLI's code in this process, and one case in a
 * real `report-desk` process with TZ set. No network: the connection's base URL answers nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../electron/core/api/baseUrl';
import { LAST_FULL_SYNC_META, ReportCache } from '../../electron/core/cache/reportCache';
import { loadScopeSalt, saltedScope } from '../../electron/core/cache/scopeSalt';
import { mulberry32, pick, type Random } from '../../electron/demo-service/random';
import type { Report } from '../../shared/model';
import { runCliCaptured, spawnCliCaptured } from '../helpers/cli';
import { randomCopy } from '../helpers/historyCopies';
import { HistoryOracle, type Tally } from '../helpers/historyOracle';
import { freeLoopbackPort } from '../helpers/network';

const KEY = 'history-property-key-0123456789';
const QUARTER = 15 * 60_000;
const DAY = 86_400_000;
const NOW = new Date('2025-12-01T00:00:00.000Z');
/** East and west of UTC, half and three-quarter hours, DST north and south. */
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Adelaide',
  'Asia/Kathmandu',
  'America/Los_Angeles',
  'Pacific/Auckland',
  'UTC',
];
/** Spans with DST changes in them: late March to April (US, EU, AU), and October to November. */
const STARTS = [Date.parse('2025-03-01T00:00:00Z'), Date.parse('2025-09-24T00:00:00Z')];

let dataDir: string;
let env: Record<string, string>;
let scope: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'report-desk-history-property-'));
  const baseUrl = `http://127.0.0.1:${await freeLoopbackPort()}`;
  env = { REPORT_DESK_DATA_DIR: dataDir, REPORT_DESK_API_KEY: KEY, REPORT_DESK_BASE_URL: baseUrl };
  scope = saltedScope(loadScopeSalt(dataDir), normalizeBaseUrl(baseUrl, false), KEY);
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Makes the connection's offline copy exactly `reports`, read in full. */
function storeCopy(reports: readonly Report[]): void {
  const cache = ReportCache.open(join(dataDir, 'cache.sqlite'));
  try {
    cache.clearScope(scope);
    cache.putReports(scope, [...reports], '2025-12-01T00:00:00.000Z');
    cache.setMeta(scope, LAST_FULL_SYNC_META, '2025-12-01T00:00:00.000Z');
  } finally {
    cache.close();
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The local date of an instant in a zone, as "YYYY-MM-DD" and its weekday, read by Intl. */
function localDate(at: number, zone: string): { date: string; weekday: string } {
  if (!formats.has(zone)) {
    formats.set(
      zone,
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        weekday: 'short',
      }),
    );
  }
  const parts = formats.get(zone)!.formatToParts(at);
  const get = (type: string) => parts.find((part) => part.type === type)!.value;
  return { date: `${get('year')}-${get('month')}-${get('day')}`, weekday: get('weekday') };
}

/**
 * The periods overlapping [since, until), found plainly: every quarter hour from well before
 * `since`, the first one whose local date differs from the one before starts a day; a day
 * starting on a Monday starts a week, on the 1st a month.
 */
function plainPeriods(
  by: string,
  since: number,
  until: number,
  zone: string,
): { start: number; end: number }[] {
  const starts: number[] = [];
  let previous = localDate(since - 40 * DAY, zone).date;
  for (let at = Math.floor((since - 40 * DAY) / QUARTER) * QUARTER; at < until + 40 * DAY; at += QUARTER) {
    const { date, weekday } = localDate(at, zone);
    if (date === previous) continue;
    previous = date;
    if (by === 'day' || (by === 'week' && weekday === 'Mon') || (by === 'month' && date.endsWith('-01')))
      starts.push(at);
  }
  const periods = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    if (starts[i + 1] > since && starts[i] < until) periods.push({ start: starts[i], end: starts[i + 1] });
  }
  return periods;
}

/** A time as a person types it, and the instant it names in `zone`: a date, a local time, an offset. */
function typedTime(random: Random, at: number, zone: string): { text: string; at: number } {
  const roll = random();
  if (roll < 0.4) {
    // A date: its local midnight (the quarter-hour walk finds it).
    const { date } = localDate(at, zone);
    const midnight = plainPeriods('day', at - DAY, at + DAY, zone).find(
      (p) => localDate(p.start, zone).date === date,
    )!.start;
    return { text: date, at: midnight };
  }
  if (roll < 0.7) return { text: new Date(at).toISOString(), at };
  const whole = Math.floor(at / QUARTER) * QUARTER;
  return { text: new Date(whole).toISOString().replace('.000Z', '+00:00'), at: whole };
}

interface Case {
  reports: Report[];
  zone: string;
  by: string;
  project: string | null;
  args: string[];
  since: number;
  until: number;
  from: { text: string; at: number };
  to: { text: string; at: number };
}

function randomCase(seed: number): Case {
  const random = mulberry32(seed);
  const start = pick(random, STARTS);
  // Every zone with every period kind; the rest at random.
  const zone = ZONES[seed % ZONES.length];
  // Some reports exactly on local midnights: the edges of every period asked for.
  const edges = plainPeriods('day', start, start + 50 * DAY, zone).map((period) => period.start);
  const reports = randomCopy(random, {
    start,
    days: 50,
    reports: 40 + Math.floor(random() * 120),
    urls: 3 + Math.floor(random() * 9),
    edges,
  });
  const by = ['day', 'week', 'month', 'day'][Math.floor(seed / ZONES.length) % 4];
  const project = pick(random, [null, null, 'alpha', 'beta']);
  const since = typedTime(random, start + Math.floor(random() * 20) * DAY + Math.floor(random() * DAY), zone);
  const until = typedTime(random, since.at + (5 + Math.floor(random() * 40)) * DAY, zone);
  const from = typedTime(random, start + Math.floor(random() * 50 * 96) * QUARTER, zone);
  const later = typedTime(random, from.at + Math.floor(random() * 50 * 96) * QUARTER, zone);
  const to = later.at >= from.at ? later : from;
  const args = [
    '--by',
    by,
    '--since',
    since.text,
    '--until',
    until.text,
    ...(project ? ['--project', project] : []),
  ];
  return { reports, zone, by, project, args, since: since.at, until: until.at, from, to };
}

function expectPeriods(kase: Case, printed: string, oracle: HistoryOracle): void {
  const answer = JSON.parse(printed) as {
    by: string;
    project: string | null;
    periods: { start: string; end: string; urls: Tally; generated: Tally }[];
  };
  expect({ by: answer.by, project: answer.project }).toEqual({ by: kase.by, project: kase.project });
  const expected = plainPeriods(kase.by, kase.since, kase.until, kase.zone).map(({ start, end }) => ({
    start,
    end,
    urls: oracle.urlsAt(end, kase.project),
    generated: oracle.generated(start, end, kase.project),
  }));
  const got = answer.periods.map(({ start, end, urls, generated }) => {
    // Each edge is a local midnight, written with the offset of that instant.
    expect(start).toMatch(/T00:00:00[+-]\d{2}:\d{2}$/);
    return { start: Date.parse(start), end: Date.parse(end), urls, generated };
  });
  expect(got).toEqual(expected);
}

describe('cache history and cache compare equal a plain count', () => {
  it.each(Array.from({ length: 32 }, (_, i) => 1000 + i))('copy %i', async (seed) => {
    const kase = randomCase(seed);
    storeCopy(kase.reports);
    const oracle = new HistoryOracle(kase.reports);
    const history = await runCliCaptured(['cache', 'history', '--json', ...kase.args], {
      env: { ...env, TZ: kase.zone },
      now: () => NOW,
    });
    expect(history.code, history.stderr).toBe(0);
    expectPeriods(kase, history.stdout, oracle);

    const compareArgs = [
      '--from',
      kase.from.text,
      '--to',
      kase.to.text,
      ...(kase.project ? ['--project', kase.project] : []),
    ];
    const compare = await runCliCaptured(['cache', 'compare', '--json', ...compareArgs], {
      env: { ...env, TZ: kase.zone },
      now: () => NOW,
    });
    expect(compare.code, compare.stderr).toBe(0);
    const changes = (JSON.parse(compare.stdout) as { changes: unknown[] }).changes;
    expect(changes).toEqual(oracle.compare(kase.from.at, kase.to.at, kase.project));
  });

  it('the same in a real report-desk process, with TZ set (west of UTC, DST inside the range)', async () => {
    let kase = randomCase(7);
    kase = { ...kase, zone: 'America/New_York', by: 'day', project: null };
    const since = Date.parse('2025-03-05T00:00:00-05:00');
    const until = Date.parse('2025-03-15T00:00:00-04:00');
    kase = { ...kase, since, until, args: ['--by', 'day', '--since', '2025-03-05', '--until', '2025-03-15'] };
    storeCopy(kase.reports);
    const run = await spawnCliCaptured(['cache', 'history', '--json', ...kase.args], {
      ...env,
      TZ: 'America/New_York',
    });
    expect(run.code, run.stderr).toBe(0);
    expectPeriods(kase, run.stdout, new HistoryOracle(kase.reports));
    // The day the clocks moved has 23 hours.
    const periods = (JSON.parse(run.stdout) as { periods: { start: string; end: string }[] }).periods;
    expect(periods.find((p) => p.start.startsWith('2025-03-09'))).toEqual({
      start: '2025-03-09T00:00:00-05:00',
      end: '2025-03-10T00:00:00-04:00',
      urls: expect.anything(),
      generated: expect.anything(),
    });
  }, 60_000);
});
