/**
 * plainReport spares zod its work (issue 22): zod is counted by wrapping the real schema, whose
 * output is the same either way, so only the count tells the fast path from the slow one.
 * Records in the shape services send — nulls, every privacy and result, fields in any order —
 * never reach zod; one in a form zod converts (privacy "1") does, and only that one.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseJsonBody, toReport, toReportPage } from '../../../electron/core/api/responses';

const zod = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../../shared/report', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../shared/report')>();
  const { countedSchema } = await import('../../helpers/countedZod');
  return { ...actual, ReportSchema: countedSchema(actual.ReportSchema, zod) };
});

const REQUESTED = { page: 1, perPage: 10 };
const COMMON = [
  {
    id: 1,
    url: 'https://a.example',
    result: 'good',
    generated_at: '2026-01-01T00:00:00Z',
    privacy: 0,
    project: 'p',
  },
  { id: '2', url: 'https://b.example', result: null, generated_at: null, privacy: null, project: null },
  { id: 3, url: 'https://c.example', result: 'decent', generated_at: null, privacy: 1, project: 7 },
  { project: null, privacy: 2, generated_at: null, result: 'bad', url: 'https://d.example', id: 4, extra: 1 },
];

beforeEach(() => {
  zod.calls = 0;
});

describe('zod reads', () => {
  it('no record in the shape services send, in a page or alone', () => {
    const page = toReportPage(parseJsonBody(200, JSON.stringify({ data: COMMON })), REQUESTED, 200);
    expect(page.reports.map((r) => r.id)).toEqual(['1', '2', '3', '4']);
    expect(toReport(parseJsonBody(200, JSON.stringify({ data: COMMON[1] })), 200).id).toBe('2');
    expect(zod.calls).toBe(0);
  });

  it('each record in a form it converts, and only those', () => {
    const odd = { ...COMMON[0], id: 9, privacy: '1' };
    const page = toReportPage(parseJsonBody(200, JSON.stringify({ data: [...COMMON, odd] })), REQUESTED, 200);
    expect(page.reports[4]).toMatchObject({ id: '9', privacy: 1 });
    expect(zod.calls).toBe(1);
  });
});
