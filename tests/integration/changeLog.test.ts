/**
 * The change log in a real SQLite file (cache/changeLog.ts, written by reportWrites.ts): what a
 * write logs and when, its retention (30 days, 10,000 entries per scope, the oldest dropped
 * first), "seen" marks, and the scopes kept apart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANGE_LOG_DAYS, CHANGE_LOG_MAX_ENTRIES } from '../../electron/core/cache/changeLog';
import { LAST_FULL_SYNC_META, ReportCache } from '../../electron/core/cache/reportCache';
import type { ReportChange } from '../../shared/contract';
import { generateReports } from '../fixtures/generatedReports';

let dir: string;
let cache: ReportCache;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-desk-changelog-'));
  cache = ReportCache.open(join(dir, 'cache.sqlite'));
});
afterEach(() => {
  cache.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = '2026-11-01T00:00:00.000Z';
const at = (days: number) => new Date(Date.parse(T0) + days * 86_400_000).toISOString();
const logged = (scope = 'p') => cache.changes.list(scope).map((c) => `${c.kind}:${c.id}`);
const baseline = (scope = 'p') => cache.setMeta(scope, LAST_FULL_SYNC_META, T0);

describe('what a write logs', () => {
  it('nothing before the scope’s first full sync; afterwards new and changed reports', () => {
    const reports = generateReports(3);
    expect(cache.putReports('p', reports, T0)).toEqual({ added: 3, changed: 0, badNews: 0 });
    expect(logged()).toEqual([]);
    baseline();
    const counts = cache.putReports(
      'p',
      [{ ...reports[0], result: 'bad' }, reports[1], ...generateReports(1, 10)],
      at(1),
    );
    expect(counts).toEqual({ added: 1, changed: 1, badNews: reports[0].result === 'bad' ? 0 : 1 });
    expect(logged()).toEqual(['added:10', 'changed:1']);
    expect(cache.changes.list('p')[1]).toMatchObject({
      at: at(1),
      seen: false,
      fields: { result: { before: reports[0].result, after: 'bad' } },
    });
  });

  it('a record changed only outside the watched fields is stored but not logged', () => {
    const [report] = generateReports(1);
    cache.putReports('p', [report], T0);
    baseline();
    expect(cache.putReports('p', [{ ...report, score: 1 }], at(1))).toEqual({
      added: 0,
      changed: 0,
      badNews: 0,
    });
    expect(cache.getReport('p', '1')?.report.score).toBe(1);
    expect(logged()).toEqual([]);
  });

  it('the user’s own writes are not logged; removals are, with what the report was', () => {
    cache.putReports('p', generateReports(3), T0);
    baseline();
    cache.putReport('p', { id: '5', url: 'https://mine.example/' }, at(1), { own: true });
    cache.removeReport('p', '5', { own: true });
    cache.removeReport('p', '2', { at: at(2) });
    expect(logged()).toEqual(['removed:2']);
    expect(cache.changes.list('p')[0]).toMatchObject({
      at: at(2),
      fields: { url: { before: generateReports(2)[1].url, after: null } },
    });
    expect(cache.pruneUnseen('p', 'no-such-sync', at(3))).toBe(2);
    expect(logged()).toEqual(['removed:3', 'removed:1', 'removed:2']);
  });

  it('keeps scopes apart, and clearing a scope (or everything) clears its log', () => {
    for (const scope of ['p', 'q']) {
      cache.putReports(scope, generateReports(1), T0);
      baseline(scope);
      cache.putReports(scope, generateReports(1, 2), at(1));
    }
    expect(logged('p')).toEqual(['added:2']);
    cache.clearScope('p');
    expect(logged('p')).toEqual([]);
    expect(logged('q')).toEqual(['added:2']);
    expect(cache.scopes()).toEqual(['q']);
    cache.clearAll();
    expect(logged('q')).toEqual([]);
  });
});

describe('retention', () => {
  const change = (id: string, when: string): ReportChange => ({ id, kind: 'added', at: when, fields: {} });

  it(`drops entries older than ${CHANGE_LOG_DAYS} days when new ones are logged`, () => {
    cache.changes.record('p', [change('old', at(0)), change('edge', at(1))]);
    cache.changes.record('q', [change('other', at(0))]);
    cache.changes.record('p', [change('new', at(CHANGE_LOG_DAYS + 0.5))]);
    // 30 days before the newest entry: 'old' is past it, 'edge' is within.
    expect(logged()).toEqual(['added:new', 'added:edge']);
    expect(logged('q')).toEqual(['added:other']);
    cache.changes.record('p', [change('exactly', at(CHANGE_LOG_DAYS + 1))]);
    expect(logged()).toEqual(['added:exactly', 'added:new', 'added:edge']);
  });

  it('the newest entry of a batch, wherever it is in it, decides the 30 days', () => {
    cache.changes.record('p', [
      change('old', at(0)),
      change('new', at(CHANGE_LOG_DAYS + 1)),
      change('mid', at(2)),
    ]);
    expect(logged()).toEqual(['added:mid', 'added:new']);
  });

  it(`keeps at most ${CHANGE_LOG_MAX_ENTRIES} entries per scope, the oldest dropped first`, () => {
    const many = Array.from({ length: CHANGE_LOG_MAX_ENTRIES + 5 }, (_, i) => change(String(i), at(0)));
    cache.transaction(() => cache.changes.record('p', many));
    cache.changes.record('q', [change('q1', at(0))]);
    const kept = cache.changes.list('p');
    expect(kept).toHaveLength(CHANGE_LOG_MAX_ENTRIES);
    expect(kept[0].id).toBe(String(CHANGE_LOG_MAX_ENTRIES + 4));
    expect(kept.at(-1)!.id).toBe('5');
    expect(logged('q')).toEqual(['added:q1']);
  });
});

describe('seen marks', () => {
  beforeEach(() => {
    cache.changes.record('p', [
      { id: '1', kind: 'added', at: at(1), fields: {} },
      { id: '2', kind: 'changed', at: at(2), fields: {} },
      { id: '3', kind: 'added', at: at(3), fields: {} },
    ]);
    cache.changes.record('q', [{ id: '1', kind: 'added', at: at(1), fields: {} }]);
  });

  it('new rows are the ids with an unseen "added" entry, in the order asked', () => {
    expect(cache.changes.newAmong('p', ['3', '2', '1', '9'])).toEqual(['3', '1']);
    expect(cache.changes.newAmong('p', [])).toEqual([]);
  });

  it('marking some reports seen leaves the others; marking all leaves none, in this scope only', () => {
    expect(cache.changes.markSeen('p', ['1', '2'])).toBe(2);
    expect(cache.changes.newAmong('p', ['1', '3'])).toEqual(['3']);
    expect(cache.changes.list('p', { unseenOnly: true }).map((c) => c.id)).toEqual(['3']);
    expect(cache.changes.markSeen('p')).toBe(1);
    expect(cache.changes.list('p', { unseenOnly: true })).toEqual([]);
    expect(cache.changes.list('p').map((c) => c.seen)).toEqual([true, true, true]);
    expect(cache.changes.newAmong('q', ['1'])).toEqual(['1']);
  });

  it('lists entries found after a time, newest first', () => {
    expect(cache.changes.list('p', { since: at(1) }).map((c) => c.id)).toEqual(['3', '2']);
    expect(cache.changes.list('p', { since: at(3) })).toEqual([]);
  });
});
