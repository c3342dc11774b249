/**
 * The reply fast path while this process knows no secret yet (issue 22): nothing can hold a
 * known secret, so a reply is judged by its names alone, \u escapes and all — the walk is
 * counted by wrapping the real scrubber, as in responsesFastPath.test.ts. No secret is
 * registered in this file (each test file has its own registry).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseJsonBody, toReportPage } from '../../../electron/core/api/responses';
import { registeredSecrets } from '../../../electron/core/log';

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

const read = (text: string) => toReportPage(parseJsonBody(200, text), { page: 1, perPage: 10 }, 200).reports;

beforeEach(() => {
  walks.count = 0;
});

describe('with no secret known', () => {
  it('a reply with \\u escapes and no secret-looking name skips the walk', () => {
    expect(registeredSecrets()).toHaveLength(0);
    expect(read('[{"id":1,"url":"https://a.example/caf\\u00e9","note":"\\u0041"}]')[0].url).toBe(
      'https://a.example/café',
    );
    expect(walks.count).toBe(0);
  });

  it('a name spelled with \\u escapes is still found, and walked out', () => {
    const reports = read('[{"id":1,"url":"u","pass\\u0077ord":"x"},{"id":2,"url":"v"}]');
    expect(reports).toEqual([
      { id: '1', url: 'u' },
      { id: '2', url: 'v' },
    ]);
    expect(walks.count).toBe(2);
  });
});
