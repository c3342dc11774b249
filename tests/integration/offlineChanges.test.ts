/**
 * What the offline copy says changed, through the gateway as the app and the CLI call it: the
 * reference service on 127.0.0.1 changed on its side between syncs (reports added, deleted,
 * re-analysed, made private), full syncs and quick refreshes into a real SQLite file, and the
 * change log, "Changes since …", the new-row marks and "mark as seen" read back. Requests are
 * counted at the service.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ContractHandlers, OfflineRefreshed, ReportChange } from '../../shared/contract';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { tempCore, type TempCore } from '../reliability/helpers';

let service: DemoService;
let temp: TempCore;
let h: ContractHandlers;
let clock = new Date('2026-11-20T08:00:00.000Z');
const refreshed: OfflineRefreshed[] = [];

const listRequests = () =>
  service.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/reports').length;
const ids = (changes: readonly ReportChange[]) => changes.map((c) => `${c.kind}:${c.id}`);
const tick = (minutes: number) => (clock = new Date(clock.getTime() + minutes * 60_000));

async function resultOf(id: number): Promise<string> {
  const report = (await h['reports:get']({ id: String(id) })).report;
  return String(report.result);
}

beforeAll(async () => {
  service = await startDemoService({ reportsPerAccount: 250 });
  temp = await tempCore('changes', { now: () => clock });
  h = temp.core.handlers;
  temp.core.events.subscribe((event, payload) => {
    if (event === 'offline:refreshed') refreshed.push(payload as OfflineRefreshed);
  });
  await h['profiles:add']({
    name: 'Watch',
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    allowInsecureHttp: false,
    sessionOnly: false,
  });
}, 30_000);

afterAll(async () => {
  await temp?.close();
  await service?.stop();
});

beforeEach(() => {
  refreshed.length = 0;
});

describe('the change log across syncs', () => {
  it('the first full sync logs nothing: it is the baseline "Changes since …" counts from', async () => {
    const summary = await h['cache:sync'](undefined);
    expect(summary).toMatchObject({ mode: 'full', added: 250, changed: 0, complete: true, passes: 1 });
    expect((await h['changes:list'](undefined)).changes).toEqual([]);
    const changes = await h['changes:summary'](undefined);
    expect(changes).toMatchObject({ since: clock.toISOString(), items: [], more: 0 });
    // Kept in local.sqlite, apart from the offline copy (issue 30).
    expect(temp.core.cache.changes.since(changes.profileId!)).toBe(clock.toISOString());
    expect(changes.counts).toEqual({ added: 0, addedBad: 0, changed: 0, turnedBad: 0, removed: 0 });
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]).toMatchObject({ profileName: 'Watch', notifyBad: false, summary: { mode: 'full' } });
  });

  it('adds, a deletion, a result turned bad and a privacy change: the next full sync logs each, newest first', async () => {
    const [first, second, third] = service.reportIds();
    const goodOne = service.reportIds().find((id) => id > third && id < first + 200)!;
    service.changeReport(goodOne, { result: 'good' });
    await h['cache:sync'](undefined);
    tick(60);
    const added = service.addReports(3);
    service.deleteReport(first);
    const privacyBefore = (await h['reports:get']({ id: String(second) })).report.privacy;
    const privacyAfter = privacyBefore === 1 ? 0 : 1;
    service.changeReport(second, { privacy: privacyAfter });
    service.changeReport(goodOne, { result: 'bad' });
    const summary = await h['cache:sync'](undefined);
    expect(summary).toMatchObject({ added: 3, changed: 2, removed: 1, complete: true });

    const { changes } = await h['changes:list'](undefined);
    // Pages are read in id order and the pruning comes last: newest first is the reverse.
    expect(ids(changes).sort()).toEqual(
      [
        `removed:${first}`,
        `changed:${second}`,
        `changed:${goodOne}`,
        ...added.map((id) => `added:${id}`),
      ].sort(),
    );
    expect(changes[0]).toMatchObject({ kind: 'removed', id: String(first), at: clock.toISOString() });
    expect(changes.find((c) => c.id === String(second))!.fields).toEqual({
      privacy: { before: privacyBefore, after: privacyAfter },
    });
    expect(changes.find((c) => c.id === String(goodOne))!.fields).toEqual({
      result: { before: 'good', after: 'bad' },
    });
    const newOne = changes.find((c) => c.id === String(added[0]))!;
    expect(newOne.fields.url.before).toBeNull();
    expect(typeof newOne.fields.url.after).toBe('string');
    expect(summary.badNews).toBe(
      1 + (await Promise.all(added.map(resultOf))).filter((result) => result === 'bad').length,
    );
    expect(refreshed.at(-1)!.summary.badNews).toBe(summary.badNews);
  });

  it('"Changes since …" counts per report, marks new rows until opened, and "mark all as seen" empties it', async () => {
    const before = await h['changes:summary'](undefined);
    expect(before.counts).toMatchObject({ added: 3, changed: 2, turnedBad: 1, removed: 1 });
    expect(before.items.map((item) => item.kind).sort()).toEqual([
      'added',
      'added',
      'added',
      'changed',
      'changed',
      'removed',
    ]);
    const removed = before.items.find((item) => item.kind === 'removed')!;
    expect(removed.report).toBeNull();
    const newIds = before.items.filter((item) => item.kind === 'added').map((item) => item.id);
    expect(before.items.find((item) => item.id === newIds[0])!.report).toMatchObject({ id: newIds[0] });

    const page = [...newIds, String(service.reportIds()[10])];
    expect((await h['changes:marks']({ ids: page })).newIds).toEqual(newIds);
    // Opening one report marks its changes seen: it is no longer new, nor counted.
    const opened = await h['changes:markSeen']({ ids: [newIds[0]] });
    expect(opened.counts.added).toBe(2);
    expect((await h['changes:marks']({ ids: page })).newIds).toEqual(newIds.slice(1));

    tick(5);
    const cleared = await h['changes:markSeen'](undefined);
    expect(cleared).toMatchObject({ since: clock.toISOString(), items: [] });
    expect(cleared.counts).toEqual({ added: 0, addedBad: 0, changed: 0, turnedBad: 0, removed: 0 });
    // The log itself keeps everything for `cache changes`.
    expect((await h['changes:list'](undefined)).changes).toHaveLength(6);
    expect((await h['changes:list']({ since: clock.toISOString() })).changes).toEqual([]);
  });

  it('the user’s own create, update and delete are not news; a report found gone by a read is', async () => {
    const created = await h['reports:create']({ url: 'https://mine.example/', privacy: 0 });
    await h['reports:update']({ id: String(created.id), changes: { privacy: 1 } });
    await h['reports:delete']({ id: String(created.id) });
    const gone = service.reportIds()[5];
    service.deleteReport(gone);
    tick(1);
    await expect(h['reports:get']({ id: String(gone) })).rejects.toMatchObject({
      error: { kind: 'not_found' },
    });
    const { changes } = await h['changes:list']({ since: new Date(clock.getTime() - 1).toISOString() });
    expect(ids(changes)).toEqual([`removed:${gone}`]);
    // The full sync finds nothing more to say about either.
    tick(1);
    const summary = await h['cache:sync'](undefined);
    expect(summary).toMatchObject({ added: 0, changed: 0, removed: 0, complete: true });
  });

  it('a change seen first by the list view is logged there, once: the next sync does not log it again', async () => {
    const target = service.reportIds()[0];
    service.changeReport(target, { result: 'decent', privacy: 2 });
    tick(1);
    await h['reports:list']({ sort: 'asc', per_page: 10, page: 1 });
    await h['cache:status'](undefined); // the write-through is done before the cache is used again
    const seenByList = await h['changes:list']({ since: new Date(clock.getTime() - 1).toISOString() });
    expect(ids(seenByList.changes)).toEqual([`changed:${target}`]);
    tick(1);
    expect(await h['cache:sync'](undefined)).toMatchObject({ changed: 0 });
    expect((await h['changes:list']({ since: new Date(clock.getTime() - 1).toISOString() })).changes).toEqual(
      [],
    );
  });
});

describe('the quick refresh', () => {
  it('with nothing new costs one list request, and records when it ran', async () => {
    tick(10);
    const start = listRequests();
    const summary = await h['cache:sync']({ quick: true });
    expect(listRequests() - start).toBe(1);
    expect(summary).toMatchObject({ mode: 'quick', added: 0, complete: false, requests: 1, pruned: false });
    expect(await h['cache:status'](undefined)).toMatchObject({ lastQuickRefreshAt: clock.toISOString() });
    const asked = service.requests.filter((r) => r.path === '/api/v1/reports').at(-1)!;
    // sort_by=id&sort=desc are the spec's defaults, which the client leaves out: newest first.
    expect(asked.query).toBe('per_page=100');
  });

  it('finds new reports newest first down to what the copy knew, logging them as added', async () => {
    tick(10);
    const added = service.addReports(130);
    const start = listRequests();
    const summary = await h['cache:sync']({ quick: true });
    // 130 new: page 1 (100 new), page 2 (30 new and the newest known report): two requests.
    expect(listRequests() - start).toBe(2);
    expect(summary).toMatchObject({ mode: 'quick', added: 130, fetched: 200, pages: 2, requests: 2 });
    const logged = (await h['changes:list']({ since: new Date(clock.getTime() - 1).toISOString() })).changes;
    expect(logged.map((c) => c.id).sort()).toEqual(added.map(String).sort());
    // Now idle again.
    const again = listRequests();
    expect(await h['cache:sync']({ quick: true })).toMatchObject({ added: 0 });
    expect(listRequests() - again).toBe(1);
  });

  it('does not stop early because the list view already wrote the newest page through', async () => {
    tick(10);
    const added = service.addReports(150);
    await h['reports:list']({ sort: 'desc', sort_by: 'id', per_page: 100, page: 1 });
    await h['cache:status'](undefined);
    const summary = await h['cache:sync']({ quick: true });
    // The list view logged the newest 100; the refresh found the other 50 on page 2.
    expect(summary).toMatchObject({ added: 50, pages: 2 });
    const cachedAll = await Promise.all(added.map((id) => h['reports:get']({ id: String(id) })));
    expect(cachedAll).toHaveLength(150);
  });

  it('never prunes: a report deleted on the service stays until a full sync', async () => {
    const gone = service.reportIds()[1];
    service.deleteReport(gone);
    const summary = await h['cache:sync']({ quick: true });
    expect(summary).toMatchObject({ removed: 0 });
    const status = await h['cache:status'](undefined);
    expect(status.reportCount).toBe(service.reportCount() + 1);
    expect(await h['cache:sync'](undefined)).toMatchObject({ removed: 1, complete: true });
  });
});

describe('without an active profile', () => {
  it('the change log channels answer empty, never an error', async () => {
    const empty = await tempCore('changes-none');
    try {
      const none = empty.core.handlers;
      expect(await none['changes:list'](undefined)).toEqual({ changes: [] });
      const summary = {
        profileId: null,
        since: null,
        counts: { added: 0, addedBad: 0, changed: 0, turnedBad: 0, removed: 0 },
        items: [],
        more: 0,
      };
      expect(await none['changes:summary'](undefined)).toEqual(summary);
      expect(await none['changes:markSeen'](undefined)).toEqual(summary);
      expect(await none['changes:marks']({ ids: ['1'] })).toEqual({ newIds: [] });
    } finally {
      await empty.close();
    }
  });
});
