/**
 * The reference service's hooks for tests that change it behind a client's back: a report's
 * result, privacy or url changed on the service's side, reports added or deleted, and changes
 * made while a client pages through the list. Real HTTP on 127.0.0.1 with Node's fetch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';

let service: DemoService | undefined;
afterEach(async () => {
  await service?.stop();
  service = undefined;
});

async function start(reports: number): Promise<DemoService> {
  service = await startDemoService({
    reportsPerAccount: reports,
    now: () => new Date('2025-06-15T12:00:00Z'),
  });
  return service;
}

interface Listed {
  data: { id: number; result: string; privacy: number; url: string; updated_at: string }[];
  meta: { total: number };
}

async function get(s: DemoService, path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${s.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${s.apiKey}`, Accept: 'application/json' },
  });
  return { status: response.status, body: response.status === 200 ? await response.json() : null };
}

const page = async (s: DemoService, query: string) =>
  (await get(s, `/api/v1/reports?${query}`)).body as Listed;

describe('changes on the service side', () => {
  it('changeReport changes what the list and the report answer, re-sorting by the new value', async () => {
    const s = await start(30);
    const [first] = s.reportIds();
    const before = (await get(s, `/api/v1/reports/${first}`)).body as { data: Listed['data'][0] };
    const other = before.data.result === 'bad' ? 'good' : 'bad';
    s.changeReport(first, { result: other, privacy: 1, url: 'https://changed.example/' });
    const after = (await get(s, `/api/v1/reports/${first}`)).body as { data: Listed['data'][0] };
    expect(after.data).toMatchObject({ result: other, privacy: 1, url: 'https://changed.example/' });
    // The order by url is rebuilt: the changed url sorts where its new text belongs.
    const byUrl = await page(s, 'sort_by=url&sort=asc&per_page=100');
    const urls = byUrl.data.map((r) => r.url);
    expect(urls).toEqual([...urls].sort());
    expect(urls).toContain('https://changed.example/');
    // The result filter sees the new result.
    const filtered = await page(s, `result=${other}&per_page=100`);
    expect(filtered.data.map((r) => r.id)).toContain(first);
    expect(() => s.changeReport(999_999, { result: 'bad' })).toThrow(
      'The demo service has no report 999999.',
    );
  });

  it('addReports adds reports after the newest, first in the newest-first list; deleteReport removes one', async () => {
    const s = await start(20);
    const oldIds = s.reportIds();
    const added = s.addReports(3);
    expect(added).toHaveLength(3);
    expect(Math.min(...added)).toBeGreaterThan(Math.max(...oldIds));
    expect(s.reportCount()).toBe(23);
    const newest = await page(s, 'sort_by=id&sort=desc&per_page=10');
    expect(newest.data.slice(0, 3).map((r) => r.id)).toEqual([...added].reverse());
    expect(s.reportIds()).toEqual([...oldIds, ...added]);

    expect(s.deleteReport(added[0])).toBe(true);
    expect(s.deleteReport(added[0])).toBe(false);
    expect((await get(s, `/api/v1/reports/${added[0]}`)).status).toBe(404);
    expect(s.reportCount()).toBe(22);
    expect(s.addReports(0)).toEqual([]);
    expect(() => s.addReports(-1)).toThrow(/0 or more/);
  });
});

describe('changes while a client pages through the list', () => {
  it('deleteDuringListing with times deletes the first report of page 1 each time, that many times', async () => {
    const s = await start(30);
    s.faults.deleteDuringListing({ afterPage: 2, times: 2 });
    for (const expected of [29, 28, 28]) {
      await page(s, 'per_page=10&sort_by=id&sort=asc&page=2');
      expect(s.reportCount()).toBe(expected);
    }
    expect(() => s.faults.deleteDuringListing({ afterPage: 1, times: 0 })).toThrow(
      'deleteDuringListing needs times, a whole number of 1 or more.',
    );
  });

  it('a new deleteDuringListing replaces one still pending', async () => {
    const s = await start(30);
    const ids = s.reportIds();
    s.faults.deleteDuringListing({ afterPage: 1, id: ids[5] });
    s.faults.deleteDuringListing({ afterPage: 1, id: ids[6] });
    await page(s, 'per_page=10&page=1');
    await page(s, 'per_page=10&page=1');
    expect(s.reportIds()).toEqual(ids.filter((id) => id !== ids[6]));
  });

  it('afterListPage runs a change once its page was served (that answer unchanged), the next `times` times', async () => {
    const s = await start(30);
    const ids = s.reportIds();
    let runs = 0;
    s.faults.afterListPage({
      afterPage: 1,
      times: 2,
      run: () => {
        runs += 1;
        s.changeReport(ids[0], { result: 'bad', privacy: 2 });
      },
    });
    await page(s, 'per_page=10&sort_by=id&sort=asc&page=2');
    expect(runs).toBe(0);
    const first = await page(s, 'per_page=10&sort_by=id&sort=asc&page=1');
    expect(runs).toBe(1);
    // The answer was built before the change.
    expect(first.data[0].privacy).not.toBe(2);
    expect((await page(s, 'per_page=10&sort_by=id&sort=asc&page=1')).data[0]).toMatchObject({ privacy: 2 });
    expect(runs).toBe(2);
    await page(s, 'per_page=10&sort_by=id&sort=asc&page=1');
    expect(runs).toBe(2);
    expect(() => s.faults.afterListPage({ afterPage: 0, run: () => {} })).toThrow(
      'afterListPage needs afterPage, a page number of 1 or more.',
    );
    s.faults.afterListPage({ afterPage: 1, run: () => (runs += 10) });
    s.faults.clear();
    await page(s, 'per_page=10&page=1');
    expect(runs).toBe(2);
  });
});
