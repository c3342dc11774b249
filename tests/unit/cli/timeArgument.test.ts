/**
 * cli/timeArgument.ts: how every TIME option is read (`--since`, `--until`, `--from`, `--to`),
 * and which zone "local" is (TZ, else the system's).
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../electron/cli/args';
import { cliTimeZone, parseTimeArgument } from '../../../electron/cli/timeArgument';
import { runtimeTimeZone } from '../../../shared/calendar';

const NOW = new Date('2026-11-23T09:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('cliTimeZone', () => {
  it('is TZ when it names a zone (glibc’s leading ":" allowed), else the system’s', () => {
    expect(cliTimeZone({ TZ: 'Asia/Kolkata' })).toBe('Asia/Kolkata');
    expect(cliTimeZone({ TZ: ':Europe/Berlin' })).toBe('Europe/Berlin');
    expect(cliTimeZone({})).toBe(runtimeTimeZone());
    expect(cliTimeZone({ TZ: '' })).toBe(runtimeTimeZone());
  });

  it('a TZ that names no zone is a usage error naming it', () => {
    expect(() => cliTimeZone({ TZ: 'Mars/Olympus' })).toThrow(
      new UsageError(
        'TZ is "Mars/Olympus", which is not a time zone this computer knows; set it to a name such as Europe/Berlin, or unset it.',
      ),
    );
  });
});

describe('parseTimeArgument', () => {
  const read = (value: string, zone = 'UTC') =>
    iso(parseTimeArgument('since', value, NOW, zone, ['cache', 'history']));

  it.each([
    ['30m', '2026-11-23T08:30:00.000Z'],
    ['12h', '2026-11-22T21:00:00.000Z'],
    ['7d', '2026-11-16T09:00:00.000Z'],
    [' 1d ', '2026-11-22T09:00:00.000Z'],
    ['0m', '2026-11-23T09:00:00.000Z'],
    ['999999m', iso(NOW.getTime() - 999_999 * 60_000)],
  ])('an age counts back from now: %j', (value, expected) => {
    expect(read(value)).toBe(expected);
  });

  it('a date is its local midnight; a local time is local; an offset is kept', () => {
    expect(read('2026-11-23', 'Asia/Kolkata')).toBe('2026-11-22T18:30:00.000Z');
    expect(read(' 2026-11-23 ', 'America/New_York')).toBe('2026-11-23T05:00:00.000Z');
    expect(read('2026-07-01T09:30', 'Europe/Berlin')).toBe('2026-07-01T07:30:00.000Z');
    expect(read('2026-07-01T09:30:00+05:30', 'Europe/Berlin')).toBe('2026-07-01T04:00:00.000Z');
  });

  it.each(['yesterday', '1000000d', '7w', '-7d', '7 d', '7dx', '2026-02-30', '2026-11-23T24:00'])(
    'not a time: %j, a usage error naming the option and the forms',
    (value) => {
      let thrown: unknown;
      try {
        parseTimeArgument('until', value, NOW, 'UTC', ['cache', 'compare']);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UsageError);
      expect(thrown).toMatchObject({
        message: `--until "${value}" is not a time: give a date (2026-11-23, its local midnight), a date and time (2026-11-23T09:00, local, or with an offset such as 2026-11-23T09:00:00+01:00 or Z) or an age (30m, 12h, 7d).`,
        topic: ['cache', 'compare'],
      });
    },
  );
});
