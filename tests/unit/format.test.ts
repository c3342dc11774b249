import { describe, expect, it } from 'vitest';
import { ageOf, formatBytes, timeAgo } from '../../shared/format';

describe('formatBytes', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1,023 bytes'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [10 * 1024 * 1024, '10.0 MB'],
    [5 * 1024 ** 3, '5.0 GB'],
    [3 * 1024 ** 5, '3,072.0 TB'],
  ])('%d bytes read as %s', (bytes, expected) => expect(formatBytes(bytes)).toBe(expected));
});

describe('ageOf and timeAgo', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  const before = (ms: number) => new Date(now - ms).toISOString();

  it.each([
    [0, 'less than a minute'],
    [59_000, 'less than a minute'],
    [60_000, '1 minute'],
    [12 * 60_000, '12 minutes'],
    [3_600_000, '1 hour'],
    [47 * 3_600_000, '47 hours'],
    [48 * 3_600_000, '2 days'],
    [-5 * 60_000, 'less than a minute'],
  ])('%d ms ago is "%s"', (ms, expected) => {
    expect(ageOf(before(ms), now)).toBe(expected);
    expect(timeAgo(before(ms), new Date(now))).toBe(`${expected} ago`);
  });

  it('says so when the time is not a date', () => {
    expect(ageOf('not a date', now)).toBe('an unknown time');
    expect(timeAgo('not a date', now)).toBe('at an unknown time');
  });
});
