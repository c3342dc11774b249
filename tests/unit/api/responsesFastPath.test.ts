/**
 * The replies' fast path (issue 12): a reply whose text cannot hold a secret skips the
 * scrubber's walk over its records, and every other reply is walked. The walk is counted by
 * wrapping the real scrubber: its output is the same either way, so only the count tells
 * the fast path from the slow one.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { registerSecret } from '../../../electron/core/log';
import { parseJsonBody, toReport, toReportPage } from '../../../electron/core/api/responses';

const walks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../electron/core/secrets', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../electron/core/secrets')>();
  return {
    ...actual,
    scrubSecrets: <T>(value: T, extraSecrets?: readonly string[]): T => {
      walks.count += 1;
      return actual.scrubSecrets(value, extraSecrets);
    },
  };
});

const REQUESTED = { page: 1, perPage: 10 };
const KEY = 'sk-live-fast-path-test-key-0099';
registerSecret(KEY);
const page = (reports: object[]) => JSON.stringify({ data: reports, meta: { total: reports.length } });

describe('the scrubber’s walk over a reply', () => {
  beforeEach(() => {
    walks.count = 0;
  });

  it('is skipped for a reply whose text holds no secret', () => {
    const text = page([
      { id: 1, url: 'https://a.example/reset-password-help' },
      { id: 2, url: 'https://b.example' },
    ]);
    expect(toReportPage(parseJsonBody(200, text), REQUESTED, 200).reports).toHaveLength(2);
    expect(toReport(parseJsonBody(200, '{"id":3,"url":"https://c.example"}'), 200).id).toBe('3');
    expect(walks.count).toBe(0);
  });

  it('is taken for every record of a reply that may hold one: a secret field, the key, an escape', () => {
    for (const text of [
      page([
        { id: 1, url: 'https://a.example', password: 'hunter22' },
        { id: 2, url: 'https://b.example' },
      ]),
      page([
        { id: 1, url: `https://a.example/?k=${KEY}` },
        { id: 2, url: 'https://b.example' },
      ]),
      page([
        { id: 1, url: 'https://a.example/\\u0041' },
        { id: 2, url: 'https://b.example' },
      ]),
    ]) {
      walks.count = 0;
      const reports = toReportPage(parseJsonBody(200, text), REQUESTED, 200).reports;
      expect({ text, walks: walks.count, leaked: JSON.stringify(reports).includes(KEY) }).toEqual({
        text,
        walks: 2,
        leaked: false,
      });
    }
  });

  it('is taken for a record that did not come through parseJsonBody', () => {
    expect(toReport({ id: 4, url: 'https://d.example' }, 200).id).toBe('4');
    expect(walks.count).toBe(1);
  });
});
