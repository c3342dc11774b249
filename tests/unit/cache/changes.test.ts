/**
 * What counts as a change (reportDiff.ts) and what unseen changes come to per report
 * (changeSummary.ts): pure functions, no database.
 */
import { describe, expect, it } from 'vitest';
import { countChanges, netChanges } from '../../../electron/core/cache/changeSummary';
import {
  addedFields,
  changedFields,
  isBadNews,
  removedFields,
  WATCHED_FIELDS,
} from '../../../electron/core/cache/reportDiff';
import type { ReportChange } from '../../../shared/contract';
import type { Report } from '../../../shared/report';

const BASE: Report = {
  id: '7',
  url: 'https://a.example/',
  result: 'good',
  privacy: 0,
  project: 'web',
  generated_at: '2026-01-01T00:00:00Z',
  score: 90,
  updated_at: '2026-01-01T00:00:00Z',
};

describe('changedFields', () => {
  it('watches result, privacy, URL, project and generated date, in that order', () => {
    expect(WATCHED_FIELDS).toEqual(['result', 'privacy', 'url', 'project', 'generated_at']);
    const after: Report = {
      ...BASE,
      result: 'bad',
      privacy: 1,
      url: 'https://b.example/',
      project: 'app',
      generated_at: '2026-02-01T00:00:00Z',
    };
    expect(changedFields(BASE, after)).toEqual({
      result: { before: 'good', after: 'bad' },
      privacy: { before: 0, after: 1 },
      url: { before: 'https://a.example/', after: 'https://b.example/' },
      project: { before: 'web', after: 'app' },
      generated_at: { before: '2026-01-01T00:00:00Z', after: '2026-02-01T00:00:00Z' },
    });
    expect(Object.keys(changedFields(BASE, after)!)).toEqual([...WATCHED_FIELDS]);
  });

  it('is null when only other fields changed (a score, an update time)', () => {
    expect(changedFields(BASE, { ...BASE, score: 10, updated_at: '2026-03-01T00:00:00Z' })).toBeNull();
    expect(changedFields(BASE, { ...BASE })).toBeNull();
  });

  it('a field that appears or disappears changes from or to null; a missing one equals null', () => {
    const { project: _project, ...without } = BASE;
    expect(changedFields(BASE, without)).toEqual({ project: { before: 'web', after: null } });
    expect(changedFields(without, BASE)).toEqual({ project: { before: null, after: 'web' } });
    expect(changedFields({ ...BASE, project: null }, without)).toBeNull();
  });

  it('compares values as JSON: a number project and its text differ; equal objects do not', () => {
    expect(changedFields({ ...BASE, project: 3 }, { ...BASE, project: '3' })).toEqual({
      project: { before: 3, after: '3' },
    });
    // A service may send anything; the record keeps it as sent.
    const odd = (value: unknown) => ({ ...BASE, generated_at: value }) as Report;
    expect(changedFields(odd({ a: 1 }), odd({ a: 1 }))).toBeNull();
    expect(changedFields(odd({ a: 1 }), odd({ a: 2 }))).toEqual({
      generated_at: { before: { a: 1 }, after: { a: 2 } },
    });
  });
});

describe('addedFields and removedFields', () => {
  it('list the watched fields the report has, from or to null', () => {
    const { generated_at: _g, ...partial } = BASE;
    expect(addedFields(partial)).toEqual({
      result: { before: null, after: 'good' },
      privacy: { before: null, after: 0 },
      url: { before: null, after: 'https://a.example/' },
      project: { before: null, after: 'web' },
    });
    expect(removedFields({ ...partial, project: null })).toEqual({
      result: { before: 'good', after: null },
      privacy: { before: 0, after: null },
      url: { before: 'https://a.example/', after: null },
    });
  });
});

describe('isBadNews', () => {
  it('a new bad report, or a result that turned bad; never a removal, nor bad staying bad', () => {
    expect(isBadNews('added', { result: { before: null, after: 'bad' } })).toBe(true);
    expect(isBadNews('added', { result: { before: null, after: 'good' } })).toBe(false);
    expect(isBadNews('added', {})).toBe(false);
    expect(isBadNews('changed', { result: { before: 'decent', after: 'bad' } })).toBe(true);
    expect(isBadNews('changed', { result: { before: 'bad', after: 'bad' } })).toBe(false);
    expect(isBadNews('changed', { privacy: { before: 0, after: 1 } })).toBe(false);
    expect(isBadNews('removed', { result: { before: null, after: 'bad' } })).toBe(false);
  });
});

let seq = 0;
function entry(id: string, kind: ReportChange['kind'], fields: ReportChange['fields']) {
  seq += 1;
  return { id, kind, fields, at: `2026-11-20T08:00:${String(seq).padStart(2, '0')}.000Z`, seq };
}

describe('netChanges', () => {
  it('merges each report’s changes from the first before to the last after, newest report first', () => {
    const list = [
      entry('1', 'changed', { result: { before: 'good', after: 'decent' } }),
      entry('2', 'added', { result: { before: null, after: 'good' } }),
      entry('1', 'changed', { result: { before: 'decent', after: 'bad' }, privacy: { before: 0, after: 2 } }),
    ];
    expect(netChanges([...list].reverse())).toEqual([
      {
        id: '1',
        kind: 'changed',
        at: list[2].at,
        fields: { result: { before: 'good', after: 'bad' }, privacy: { before: 0, after: 2 } },
        bad: true,
      },
      {
        id: '2',
        kind: 'added',
        at: list[1].at,
        fields: { result: { before: null, after: 'good' } },
        bad: false,
      },
    ]);
  });

  it('a report that came and went, or changed back, is no news; one changed then removed is removed', () => {
    const list = [
      entry('1', 'added', { result: { before: null, after: 'bad' } }),
      entry('1', 'removed', { result: { before: 'bad', after: null } }),
      entry('2', 'changed', { result: { before: 'good', after: 'bad' } }),
      entry('2', 'changed', { result: { before: 'bad', after: 'good' } }),
      entry('3', 'changed', { result: { before: 'good', after: 'bad' } }),
      entry('3', 'removed', { result: { before: 'bad', after: null } }),
      entry('4', 'removed', { url: { before: 'https://x.example/', after: null } }),
      entry('4', 'added', {
        url: { before: null, after: 'https://x.example/' },
        result: { before: null, after: 'bad' },
      }),
    ];
    const net = netChanges(list);
    expect(net.map((n) => `${n.kind}:${n.id}:${n.bad}`)).toEqual(['changed:4:true', 'removed:3:false']);
    expect(net[1].fields).toEqual({ result: { before: 'good', after: null } });
  });

  it('a new report that turned bad later is a new bad one; one added bad and made good is not bad', () => {
    const net = netChanges([
      entry('1', 'added', { result: { before: null, after: 'good' } }),
      entry('1', 'changed', { result: { before: 'good', after: 'bad' } }),
      entry('2', 'added', { result: { before: null, after: 'bad' } }),
      entry('2', 'changed', { result: { before: 'bad', after: 'good' } }),
    ]);
    expect(net.map((n) => [n.kind, n.id, n.bad])).toEqual([
      ['added', '2', false],
      ['added', '1', true],
    ]);
    expect(countChanges(net)).toEqual({ added: 2, addedBad: 1, changed: 0, turnedBad: 0, removed: 0 });
  });
});

describe('countChanges', () => {
  it('counts each kind, and the bad among the added and the changed', () => {
    const net = netChanges([
      entry('1', 'added', { result: { before: null, after: 'bad' } }),
      entry('2', 'added', { result: { before: null, after: 'good' } }),
      entry('3', 'changed', { result: { before: 'good', after: 'bad' } }),
      entry('4', 'changed', { privacy: { before: 0, after: 1 } }),
      entry('5', 'removed', { result: { before: 'bad', after: null } }),
    ]);
    expect(countChanges(net)).toEqual({ added: 2, addedBad: 1, changed: 2, turnedBad: 1, removed: 1 });
    expect(countChanges([])).toEqual({ added: 0, addedBad: 0, changed: 0, turnedBad: 0, removed: 0 });
  });
});
