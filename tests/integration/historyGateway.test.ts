/**
 * The history channels through the real core (createCoreServices, a real SQLite file), with a
 * fetch that fails the test if anything asks the network: history reads the offline copy only.
 * Inputs are checked as every channel's are (parseChannelInput), and a profile whose copy was
 * never read in full answers `not_synced` instead of wrong numbers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseChannelInput,
  type ChannelInput,
  type Channel,
  type HistoryPeriods,
} from '../../shared/contract';
import { AppFailure } from '../../shared/errors';
import { mulberry32 } from '../../electron/demo-service/random';
import { LAST_FULL_SYNC_META } from '../../electron/core/cache/reportCache';
import { createCoreServices, type CoreServices } from '../../electron/core/services';
import { HistoryOracle } from '../helpers/historyOracle';
import { randomCopy } from '../helpers/historyCopies';
import { csvRecords } from '../helpers/csv';

const START = Date.parse('2025-03-01T00:00:00Z');
const SYNCED_AT = '2025-05-01T00:00:00.000Z';
const NOW = new Date('2025-04-15T12:00:00.000Z');
const reports = randomCopy(mulberry32(77), { start: START, days: 40, reports: 200, urls: 12 });
const oracle = new HistoryOracle(reports);

let dataDir: string;
let core: CoreServices;
let scope: string;
let asked = 0;

/** A channel called as a front end calls it: its input checked, then its handler. */
async function call<C extends Channel>(channel: C, input: ChannelInput<C>) {
  const parsed = parseChannelInput(channel, input);
  if (!parsed.ok) throw new AppFailure(parsed.error);
  return core.handlers[channel](parsed.value);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'report-desk-history-gateway-'));
  core = await createCoreServices({
    dataDir,
    fetch: () => {
      asked += 1;
      throw new Error('history asked the network');
    },
    now: () => NOW,
    probeIntervalMs: 0,
    fixedConnection: {
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'history-key-0123456789',
      allowInsecureHttp: false,
    },
    saveExport: async () => null,
  });
  scope = core.connections.activeScope()!;
  core.cache.putReports(scope, reports, SYNCED_AT);
});

afterAll(async () => {
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
  expect(asked).toBe(0);
});

describe('before the copy was read in full', () => {
  it('every channel says not_synced; the export refuses with the reason a front end words', async () => {
    const answers = await Promise.all([
      call('history:periods', {}),
      call('history:timeline', { url: reports[0].url }),
      call('history:compare', { from: '2025-03-01T00:00:00Z', to: '2025-04-01T00:00:00Z' }),
      call('history:urls', { at: '2025-03-10T00:00:00Z' }),
    ]);
    for (const answer of answers) expect(answer).toEqual({ available: false, reason: 'not_synced' });
    await expect(call('history:export', { kind: 'periods', format: 'csv' })).rejects.toMatchObject({
      error: {
        kind: 'offline',
        reason: 'nothing_cached',
        message: 'There is no history to export until the whole profile is available offline.',
      },
    });
  });
});

describe('periods', () => {
  beforeAll(() => core.cache.setMeta(scope, LAST_FULL_SYNC_META, SYNCED_AT));

  it('without a range: from the period of the oldest report to the one holding now, by the kind that reads best (days for six weeks)', async () => {
    const answer = (await call('history:periods', { timeZone: 'Asia/Kolkata' })) as HistoryPeriods;
    expect(answer).toMatchObject({
      available: true,
      profileId: scope,
      lastFullSyncAt: SYNCED_AT,
      timeZone: 'Asia/Kolkata',
      by: 'day',
      project: null,
      until: '2025-04-15T17:30:00+05:30',
    });
    expect(Date.parse(answer.since!)).toBe(oracle.oldest(null));
    expect(answer.since).toMatch(/\+05:30$/);
    expect(answer.periods.at(-1)!.end).toBe('2025-04-16T00:00:00+05:30');
    for (const period of answer.periods) {
      expect(period.urls).toEqual(oracle.urlsAt(Date.parse(period.end), null));
      expect(period.generated).toEqual(
        oracle.generated(Date.parse(period.start), Date.parse(period.end), null),
      );
    }
    // Every counted report is in one period.
    const all = oracle.generated(-8.64e15, 8.64e15, null);
    expect(
      answer.periods.reduce((n, p) => n + p.generated.good + p.generated.decent + p.generated.bad, 0),
    ).toBe(all.good + all.decent + all.bad);
  });

  it('a project and a range, by month, in a zone west of UTC', async () => {
    const answer = (await call('history:periods', {
      by: 'month',
      project: 'alpha',
      since: '2025-03-05T00:00:00-03:00',
      until: '2025-04-02T00:00:00-03:00',
      timeZone: 'America/Sao_Paulo',
    })) as HistoryPeriods;
    expect(answer.periods.map((p) => [p.start, p.end])).toEqual([
      ['2025-03-01T00:00:00-03:00', '2025-04-01T00:00:00-03:00'],
      ['2025-04-01T00:00:00-03:00', '2025-05-01T00:00:00-03:00'],
    ]);
    for (const period of answer.periods) {
      expect(period.urls).toEqual(oracle.urlsAt(Date.parse(period.end), 'alpha'));
    }
  });

  it('refuses more than 10,000 periods, and a project with no reports has zero periods to show', async () => {
    await expect(call('history:periods', { by: 'day', since: '1990-01-01T00:00:00Z' })).rejects.toMatchObject(
      {
        error: { kind: 'invalid_input', message: expect.stringMatching(/more than 10,000 days/) },
      },
    );
    expect(await call('history:periods', { project: 'no-such-project' })).toMatchObject({
      by: 'week',
      periods: [],
      since: null,
    });
  });
});

describe('the other channels', () => {
  beforeAll(() => core.cache.setMeta(scope, LAST_FULL_SYNC_META, SYNCED_AT));

  it('the timeline: reports oldest first, the transitions, and the change log’s entries', async () => {
    const url = reports[3].url;
    const answer = await call('history:timeline', { url });
    const { reports: expected, transitions } = oracle.timeline(url);
    expect(answer).toMatchObject({
      available: true,
      url,
      reports: expected.map((r) => ({ id: r.id, generatedAt: r.generatedAt, result: r.result })),
      transitions: transitions.map((t) => ({
        id: t.id,
        generatedAt: t.generated_at,
        from: t.from,
        to: t.to,
      })),
      changes: [],
    });
  });

  it('compare: the changes and their counts; the URLs at an instant, a page at a time', async () => {
    const from = '2025-03-10T00:00:00+01:00';
    const to = '2025-04-10T00:00:00+01:00';
    const answer = await call('history:compare', { from, to, timeZone: 'Europe/Berlin' });
    const expected = oracle.compare(Date.parse(from), Date.parse(to), null);
    expect(answer).toMatchObject({
      from: '2025-03-10T00:00:00+01:00',
      to: '2025-04-10T01:00:00+02:00',
      changes: expected,
    });
    const rank = (r: string | null) => ['good', 'decent', 'bad'].indexOf(r!);
    expect(answer).toMatchObject({
      counts: {
        new: expected.filter((c) => c.before === null).length,
        better: expected.filter((c) => c.before !== null && rank(c.after) < rank(c.before)).length,
        worse: expected.filter((c) => c.before !== null && rank(c.after) > rank(c.before)).length,
      },
    });
    const at = '2025-03-20T00:00:00Z';
    const first = await call('history:urls', { at, limit: 5 });
    const rest = await call('history:urls', { at, limit: 500, after: 'next' in first ? first.next! : '' });
    const standing = oracle.standingAt(Date.parse(at), null, null);
    expect(first).toMatchObject({
      counts: oracle.urlsAt(Date.parse(at), null),
      result: null,
      next: standing[4].url,
    });
    expect(
      ['urls' in first ? first.urls : [], 'urls' in rest ? rest.urls : []].flat().map((u) => u.url),
    ).toEqual(standing.map((u) => u.url));
  });

  it('exports the chart’s numbers and a compare as CSV and JSON, saved like every export', async () => {
    const periods = await call('history:export', {
      kind: 'periods',
      format: 'csv',
      by: 'week',
      timeZone: 'UTC',
    });
    expect(periods).toMatchObject({
      format: 'csv',
      source: 'cache',
      fetchedAt: SYNCED_AT,
      saveBy: 'dialog',
      pages: 0,
    });
    expect(periods.fileName).toBe('history-2025-04-15T1200.csv');
    const { header, records } = csvRecords(periods.content);
    expect(header).toEqual([
      'start',
      'end',
      'urls_good',
      'urls_decent',
      'urls_bad',
      'generated_good',
      'generated_decent',
      'generated_bad',
    ]);
    expect(records).toHaveLength(periods.count);
    const last = records.at(-1)!;
    expect(Number(last.urls_bad)).toBe(oracle.urlsAt(Date.parse(last.end), null).bad);

    const compare = await call('history:export', {
      kind: 'compare',
      format: 'json',
      from: '2025-03-01T00:00:00Z',
      to: '2025-04-01T00:00:00Z',
      timeZone: 'UTC',
    });
    expect(compare.fileName).toBe('compare-2025-04-15T1200.json');
    const json = JSON.parse(compare.content);
    expect(json).toMatchObject({
      source: 'cache',
      fetched_at: SYNCED_AT,
      project: null,
      from: '2025-03-01T00:00:00+00:00',
    });
    expect(json.changes).toEqual(
      oracle.compare(Date.parse('2025-03-01T00:00:00Z'), Date.parse('2025-04-01T00:00:00Z'), null),
    );
    expect(compare.count).toBe(json.changes.length);
    // The save goes through the existing channel (here the dialog is cancelled).
    expect(
      await call('export:save', { fileName: compare.fileName, format: 'json', content: compare.content }),
    ).toEqual({
      saved: false,
      path: null,
      download: false,
    });
  });
});

describe('the change log and no profile', () => {
  beforeAll(() => core.cache.setMeta(scope, LAST_FULL_SYNC_META, SYNCED_AT));

  it('a URL’s timeline carries the change log’s entries of its reports, found by their ids', async () => {
    const report = reports.find((r) => r.result !== null && r.generated_at !== 'not a date')!;
    // A privacy change: the entry names no URL, only the report.
    core.cache.putReport(scope, { ...report, privacy: report.privacy === 1 ? 2 : 1 }, SYNCED_AT);
    const answer = await call('history:timeline', { url: report.url });
    expect('changes' in answer && answer.changes).toEqual([
      {
        id: report.id,
        kind: 'changed',
        at: SYNCED_AT,
        fields: { privacy: { before: report.privacy, after: report.privacy === 1 ? 2 : 1 } },
      },
    ]);
  });

  it('without a profile, every channel says no_profile', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'report-desk-history-none-'));
    const bare = await createCoreServices({
      dataDir: empty,
      probeIntervalMs: 0,
      fetch: () => Promise.reject(new Error('no')),
    });
    try {
      expect(await bare.handlers['history:periods']({ project: null })).toEqual({
        available: false,
        reason: 'no_profile',
      });
      expect(await bare.handlers['history:timeline']({ url: 'u' })).toEqual({
        available: false,
        reason: 'no_profile',
      });
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the files', () => {
  beforeAll(() => core.cache.setMeta(scope, LAST_FULL_SYNC_META, SYNCED_AT));

  it('the chart’s numbers as JSON, and a compare as CSV, hold exactly what the answers hold', async () => {
    const input = { by: 'month' as const, project: 'beta', timeZone: 'Europe/Berlin' };
    const answer = (await call('history:periods', input)) as HistoryPeriods;
    const file = await call('history:export', { kind: 'periods', format: 'json', ...input });
    expect(file.content.endsWith('}\n')).toBe(true);
    expect(JSON.parse(file.content)).toEqual({
      exported_at: NOW.toISOString(),
      source: 'cache',
      fetched_at: SYNCED_AT,
      time_zone: 'Europe/Berlin',
      project: 'beta',
      by: 'month',
      periods: answer.periods,
    });
    expect(file).toMatchObject({ count: answer.periods.length, fileName: 'history-2025-04-15T1200.json' });

    const range = {
      from: '2025-03-05T00:00:00Z',
      to: '2025-04-05T00:00:00Z',
      project: null,
      timeZone: 'UTC',
    };
    const compared = await call('history:compare', range);
    const csv = await call('history:export', { kind: 'compare', format: 'csv', ...range });
    const { header, records } = csvRecords(csv.content);
    expect(header).toEqual(['url', 'before', 'after', 'before_id', 'after_id']);
    expect(records).toEqual(
      'changes' in compared
        ? compared.changes.map((c) => ({
            url: c.url,
            before: c.before ?? '',
            after: c.after,
            before_id: c.beforeId ?? '',
            after_id: c.afterId,
          }))
        : [],
    );
    expect(records.length).toBeGreaterThan(3);
    expect(records.some((r) => r.before === '')).toBe(true);
    expect(csv).toMatchObject({
      count: records.length,
      fileName: 'compare-2025-04-15T1200.csv',
      format: 'csv',
    });
  });
});

describe('inputs', () => {
  it.each([
    [
      'history:periods',
      { since: '2025-04-01T00:00:00Z', until: '2025-03-01T00:00:00Z' },
      'The start of the range must be before its end.',
    ],
    [
      'history:periods',
      { since: '2025-04-01T00:00:00Z', until: '2025-04-01T00:00:00Z' },
      'The start of the range must be before its end.',
    ],
    [
      'history:periods',
      { since: '2025-04-01' },
      'Not a date and time with its offset (e.g. 2026-11-23T09:00:00+01:00).',
    ],
    [
      'history:periods',
      { until: '2025-02-30T00:00:00Z' },
      'Not a date and time with its offset (e.g. 2026-11-23T09:00:00+01:00).',
    ],
    ['history:periods', { by: 'year' }, expect.stringMatching(/^The input is not valid/)],
    [
      'history:periods',
      { timeZone: 'Mars/Olympus' },
      'Not a time zone this computer knows (e.g. Europe/Berlin).',
    ],
    [
      'history:compare',
      { from: '2025-04-02T00:00:00Z', to: '2025-04-01T00:00:00Z' },
      'The first date must not be after the second.',
    ],
    [
      'history:urls',
      { at: '2025-04-01T00:00:00Z', limit: 501 },
      expect.stringMatching(/^The input is not valid/),
    ],
    ['history:timeline', { url: '' }, expect.stringMatching(/^The input is not valid/)],
    [
      'history:export',
      { kind: 'compare', format: 'csv', from: '2025-04-02T00:00:00Z', to: '2025-04-01T00:00:00Z' },
      'The first date must not be after the second.',
    ],
    ['history:export', { kind: 'periods', format: 'xml' }, expect.stringMatching(/^The input is not valid/)],
  ] as const)('%s refuses %j', (channel, input, message) => {
    const parsed = parseChannelInput(channel, input);
    expect(parsed).toMatchObject({ ok: false, error: { kind: 'invalid_input', message } });
  });
});
