/**
 * shared/calendar.ts: calendar periods and instants in a time zone, checked against dates whose
 * answers are known (ISO weeks across year ends; DST changes in Europe/Berlin,
 * America/New_York and Australia/Adelaide; the +05:30 of Asia/Kolkata and +05:45 of
 * Asia/Kathmandu; a midnight that does not exist in America/Santiago and one that exists twice
 * in America/Havana).
 */
import { describe, expect, it } from 'vitest';
import {
  defaultPeriodKind,
  formatInstant,
  instantOfLocalTime,
  isTimeZone,
  localTimeOf,
  parseInstant,
  parseLocalOrInstant,
  periodOf,
  periodsCovering,
  runtimeTimeZone,
  startOfLocalDay,
  zoneOffsetMs,
  type PeriodKind,
} from '../../shared/calendar';

const HOUR = 3_600_000;
const utc = (text: string) => Date.parse(text);

/** Each period of [since, until) in `zone` as "start .. end (hours)". */
function periods(kind: PeriodKind, since: string, until: string, zone: string, max = 100): string[] {
  return periodsCovering(kind, utc(since), utc(until), zone, max)!.map(
    (p) => `${formatInstant(p.start, zone)} .. ${formatInstant(p.end, zone)} (${(p.end - p.start) / HOUR}h)`,
  );
}

describe('days across daylight saving changes', () => {
  it('Europe/Berlin: the spring day has 23 hours, the autumn day 25', () => {
    expect(periods('day', '2025-03-29T12:00:00Z', '2025-03-31T00:00:00Z', 'Europe/Berlin')).toEqual([
      '2025-03-29T00:00:00+01:00 .. 2025-03-30T00:00:00+01:00 (24h)',
      '2025-03-30T00:00:00+01:00 .. 2025-03-31T00:00:00+02:00 (23h)',
      '2025-03-31T00:00:00+02:00 .. 2025-04-01T00:00:00+02:00 (24h)',
    ]);
    expect(periods('day', '2025-10-26T05:00:00Z', '2025-10-26T22:00:00Z', 'Europe/Berlin')).toEqual([
      '2025-10-26T00:00:00+02:00 .. 2025-10-27T00:00:00+01:00 (25h)',
    ]);
  });

  it('America/New_York: the same, on its own dates and west of UTC', () => {
    expect(periods('day', '2025-03-09T12:00:00Z', '2025-03-09T13:00:00Z', 'America/New_York')).toEqual([
      '2025-03-09T00:00:00-05:00 .. 2025-03-10T00:00:00-04:00 (23h)',
    ]);
    expect(periods('day', '2025-11-02T12:00:00Z', '2025-11-02T13:00:00Z', 'America/New_York')).toEqual([
      '2025-11-02T00:00:00-04:00 .. 2025-11-03T00:00:00-05:00 (25h)',
    ]);
  });

  it('Australia/Adelaide: +10:30 in summer, +09:30 in winter, and its half-hour zone’s DST days', () => {
    expect(periods('day', '2025-10-05T03:00:00Z', '2025-10-05T04:00:00Z', 'Australia/Adelaide')).toEqual([
      '2025-10-05T00:00:00+09:30 .. 2025-10-06T00:00:00+10:30 (23h)',
    ]);
    expect(periods('day', '2025-04-06T03:00:00Z', '2025-04-06T04:00:00Z', 'Australia/Adelaide')).toEqual([
      '2025-04-06T00:00:00+10:30 .. 2025-04-07T00:00:00+09:30 (25h)',
    ]);
  });

  it('a midnight that does not happen starts the day when the clocks jump (America/Santiago)', () => {
    expect(periods('day', '2024-09-07T12:00:00Z', '2024-09-08T12:00:00Z', 'America/Santiago')).toEqual([
      '2024-09-07T00:00:00-04:00 .. 2024-09-08T01:00:00-03:00 (24h)',
      '2024-09-08T01:00:00-03:00 .. 2024-09-09T00:00:00-03:00 (23h)',
    ]);
  });

  it('a midnight that happens twice starts the day the first time (America/Havana)', () => {
    expect(periods('day', '2024-11-03T12:00:00Z', '2024-11-03T13:00:00Z', 'America/Havana')).toEqual([
      '2024-11-03T00:00:00-04:00 .. 2024-11-04T00:00:00-05:00 (25h)',
    ]);
    // The repeated hour reads as the same day, and belongs to it.
    const repeated = utc('2024-11-03T05:30:00Z');
    expect(formatInstant(repeated, 'America/Havana')).toBe('2024-11-03T00:30:00-05:00');
    expect(periodOf('day', repeated, 'America/Havana').start).toBe(utc('2024-11-03T04:00:00Z'));
  });
});

describe('weeks and months', () => {
  it('ISO weeks start on Monday, across year ends (2025-01-01 is in the week of 2024-12-30)', () => {
    expect(periods('week', '2024-12-28T12:00:00Z', '2025-01-08T00:00:00Z', 'UTC')).toEqual([
      '2024-12-23T00:00:00+00:00 .. 2024-12-30T00:00:00+00:00 (168h)',
      '2024-12-30T00:00:00+00:00 .. 2025-01-06T00:00:00+00:00 (168h)',
      '2025-01-06T00:00:00+00:00 .. 2025-01-13T00:00:00+00:00 (168h)',
    ]);
    // A Sunday belongs to the week of the Monday before it; a Thursday 1 January too.
    expect(formatInstant(periodOf('week', utc('2026-01-04T12:00:00Z'), 'UTC').start, 'UTC')).toBe(
      '2025-12-29T00:00:00+00:00',
    );
    expect(formatInstant(periodOf('week', utc('2026-01-01T12:00:00Z'), 'UTC').start, 'UTC')).toBe(
      '2025-12-29T00:00:00+00:00',
    );
  });

  it('a week with a DST change has 167 or 169 hours; Kolkata’s weeks start at 18:30 UTC', () => {
    expect(periods('week', '2025-03-27T00:00:00Z', '2025-03-28T00:00:00Z', 'Europe/Berlin')).toEqual([
      '2025-03-24T00:00:00+01:00 .. 2025-03-31T00:00:00+02:00 (167h)',
    ]);
    expect(periods('week', '2025-10-22T00:00:00Z', '2025-10-23T00:00:00Z', 'Europe/Berlin')).toEqual([
      '2025-10-20T00:00:00+02:00 .. 2025-10-27T00:00:00+01:00 (169h)',
    ]);
    const week = periodOf('week', utc('2025-01-01T00:00:00Z'), 'Asia/Kolkata');
    expect(new Date(week.start).toISOString()).toBe('2024-12-29T18:30:00.000Z');
    expect(formatInstant(week.start, 'Asia/Kolkata')).toBe('2024-12-30T00:00:00+05:30');
  });

  it('months from the first, across a year end and a DST change (Adelaide’s October has 743 hours)', () => {
    expect(periods('month', '2024-12-15T00:00:00Z', '2025-01-15T00:00:00Z', 'Australia/Adelaide')).toEqual([
      '2024-12-01T00:00:00+10:30 .. 2025-01-01T00:00:00+10:30 (744h)',
      '2025-01-01T00:00:00+10:30 .. 2025-02-01T00:00:00+10:30 (744h)',
    ]);
    expect(periods('month', '2024-10-15T00:00:00Z', '2024-10-16T00:00:00Z', 'Australia/Adelaide')).toEqual([
      '2024-10-01T00:00:00+09:30 .. 2024-11-01T00:00:00+10:30 (743h)',
    ]);
    expect(periods('month', '2024-02-10T00:00:00Z', '2024-02-11T00:00:00Z', 'UTC')).toEqual([
      '2024-02-01T00:00:00+00:00 .. 2024-03-01T00:00:00+00:00 (696h)',
    ]);
  });
});

describe('periodsCovering: the range', () => {
  it('starts with the period holding `since` and ends with the one holding the last instant before `until`', () => {
    const zone = 'Asia/Kathmandu';
    const start = startOfLocalDay({ year: 2025, month: 5, day: 10 }, zone);
    expect(formatInstant(start, zone)).toBe('2025-05-10T00:00:00+05:45');
    // `until` on a period's first instant: that period is not included.
    expect(periodsCovering('day', start - 1, start, zone, 10)).toEqual([
      { start: start - 86_400_000, end: start },
    ]);
    expect(periodsCovering('day', start, start + 1, zone, 10)).toEqual([{ start, end: start + 86_400_000 }]);
  });

  it('is empty when `since` is not before `until`, and null beyond `max` periods', () => {
    expect(periodsCovering('day', 10, 10, 'UTC', 5)).toEqual([]);
    expect(periodsCovering('day', 11, 10, 'UTC', 5)).toEqual([]);
    const since = utc('2025-01-01T00:00:00Z');
    expect(periodsCovering('day', since, since + 3 * 86_400_000, 'UTC', 3)).toHaveLength(3);
    expect(periodsCovering('day', since, since + 3 * 86_400_000 + 1, 'UTC', 3)).toBeNull();
  });
});

describe('local times and instants', () => {
  it('the offset at an instant, east positive, including half and three-quarter hours', () => {
    expect(zoneOffsetMs(utc('2025-06-01T00:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * HOUR);
    expect(zoneOffsetMs(utc('2025-06-01T00:00:00.999Z'), 'Asia/Kathmandu')).toBe(5.75 * HOUR);
    expect(zoneOffsetMs(utc('2025-01-01T00:00:00Z'), 'America/New_York')).toBe(-5 * HOUR);
    expect(zoneOffsetMs(utc('2025-07-01T00:00:00Z'), 'America/New_York')).toBe(-4 * HOUR);
    // Asked twice: the same answer (it is remembered).
    expect(zoneOffsetMs(utc('2025-07-01T00:00:00Z'), 'America/New_York')).toBe(-4 * HOUR);
  });

  it('reads a wall-clock time in a gap as after it, and a repeated one as its first time', () => {
    const wall = (hour: number, minute: number, day: number, month: number) => ({
      year: 2025,
      month,
      day,
      hour,
      minute,
      second: 0,
      millisecond: 0,
    });
    expect(new Date(instantOfLocalTime(wall(2, 30, 30, 3), 'Europe/Berlin')).toISOString()).toBe(
      '2025-03-30T01:30:00.000Z',
    );
    expect(new Date(instantOfLocalTime(wall(2, 30, 26, 10), 'Europe/Berlin')).toISOString()).toBe(
      '2025-10-26T00:30:00.000Z',
    );
    expect(new Date(instantOfLocalTime(wall(12, 0, 1, 6), 'Asia/Kolkata')).toISOString()).toBe(
      '2025-06-01T06:30:00.000Z',
    );
    expect(localTimeOf(utc('2025-06-01T06:30:00.250Z'), 'Asia/Kolkata')).toEqual({
      ...wall(12, 0, 1, 6),
      millisecond: 250,
    });
  });

  it('formats an instant with its offset, milliseconds only when there are some, years below 1000 padded', () => {
    expect(formatInstant(utc('2025-03-04T10:20:30.000Z'), 'UTC')).toBe('2025-03-04T10:20:30+00:00');
    expect(formatInstant(utc('2025-03-04T10:20:30.045Z'), 'America/New_York')).toBe(
      '2025-03-04T05:20:30.045-05:00',
    );
    expect(formatInstant(utc('0999-03-04T10:20:30.000Z'), 'UTC')).toBe('0999-03-04T10:20:30+00:00');
    // A historical offset with seconds (Monrovia until 1972: -00:44:30).
    expect(formatInstant(utc('1950-06-01T00:00:00Z'), 'Africa/Monrovia')).toBe(
      '1950-05-31T23:15:30-00:44:30',
    );
  });

  it('knows time zones by name, and the runtime’s own', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone(' ')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(runtimeTimeZone()).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(isTimeZone(runtimeTimeZone())).toBe(true);
  });
});

describe('reading times', () => {
  it.each([
    ['2025-03-04T10:20:30Z', '2025-03-04T10:20:30.000Z'],
    ['2025-03-04t10:20:30z', '2025-03-04T10:20:30.000Z'],
    ['2025-03-04 10:20Z', '2025-03-04T10:20:00.000Z'],
    ['2025-03-04T10:20:30.5+05:30', '2025-03-04T04:50:30.500Z'],
    ['2025-03-04T10:20:30.123456-03:00', '2025-03-04T13:20:30.123Z'],
    ['2024-02-29T23:59:59+23:59', '2024-02-29T00:00:59.000Z'],
    ['0001-01-01T00:00Z', '0001-01-01T00:00:00.000Z'],
    ['2025-03-04T10:20:30.123456789Z', '2025-03-04T10:20:30.123Z'],
  ])('an instant with its offset: %s', (text, iso) => {
    expect(new Date(parseInstant(text)!).toISOString()).toBe(iso);
    // With an offset, the zone does not matter.
    expect(parseLocalOrInstant(text, 'Pacific/Auckland')).toBe(parseInstant(text));
  });

  it.each([
    '2025-03-04',
    '2025-03-04T10:20:30',
    '2025-02-29T10:00Z',
    '2025-04-31T10:00Z',
    '2025-13-01T10:00Z',
    '2025-00-01T10:00Z',
    '2025-01-00T10:00Z',
    '2025-03-04T24:00Z',
    '2025-03-04T10:60Z',
    '2025-03-04T10:20:60Z',
    '2025-03-04T10:20+24:00',
    '2025-03-04T10:20+05:60',
    '0000-03-04T10:20Z',
    '25-03-04T10:20Z',
    '2025-03-04T10Z',
    'yesterday',
    '',
    ' 2025-03-04T10:20Z',
    '2025-03-04T10:20Zjunk',
    '2025-03-04T10:20:30.1234567890Z',
  ])('not an instant with its offset: "%s"', (text) => {
    expect(parseInstant(text)).toBeNull();
  });

  it('a date is its local midnight, a time without offset is local, in the zone given', () => {
    expect(new Date(parseLocalOrInstant('2025-06-01', 'Asia/Kolkata')!).toISOString()).toBe(
      '2025-05-31T18:30:00.000Z',
    );
    expect(new Date(parseLocalOrInstant('2025-06-01', 'America/New_York')!).toISOString()).toBe(
      '2025-06-01T04:00:00.000Z',
    );
    expect(new Date(parseLocalOrInstant('2025-06-01T09:15', 'Europe/Berlin')!).toISOString()).toBe(
      '2025-06-01T07:15:00.000Z',
    );
    expect(new Date(parseLocalOrInstant('2025-01-01 09:15:30.25', 'Europe/Berlin')!).toISOString()).toBe(
      '2025-01-01T08:15:30.250Z',
    );
    expect(parseLocalOrInstant('2025-02-30', 'UTC')).toBeNull();
    expect(parseLocalOrInstant('2025-06-01Z', 'UTC')).toBeNull();
    expect(parseLocalOrInstant('June 1', 'UTC')).toBeNull();
  });
});

describe('defaultPeriodKind', () => {
  const day = 86_400_000;
  it.each([
    [1, 'day'],
    [62, 'day'],
    [62.01, 'week'],
    [731, 'week'],
    [731.01, 'month'],
    [3000, 'month'],
  ])('%d days read best by %s', (days, kind) => {
    const since = Date.parse('2025-01-01T00:00:00Z');
    expect(defaultPeriodKind(since, since + days * day)).toBe(kind);
  });
});
