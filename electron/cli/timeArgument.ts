/**
 * The times the CLI reads (`--since`, `--until`, `--from`, `--to`), one way for every command:
 * a date is its local midnight, a date and time is local unless it carries an offset, and an
 * age (30m, 12h, 7d) counts back from now. "Local" is the TZ environment variable's zone when
 * it is set, else the system's.
 */
import { isTimeZone, parseLocalOrInstant, runtimeTimeZone } from '../../shared/calendar';
import { UsageError } from './args';
import type { CliIo } from './context';
import { display } from './format';

const AGE_UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The zone "local" means for this run: TZ (glibc's leading ":" allowed) when set, else the system's. */
export function cliTimeZone(env: CliIo['env']): string {
  const given = env.TZ?.replace(/^:/, '');
  if (given === undefined || given === '') return runtimeTimeZone();
  if (!isTimeZone(given)) {
    throw new UsageError(
      `TZ is "${display(given)}", which is not a time zone this computer knows; set it to a name such as Europe/Berlin, or unset it.`,
    );
  }
  return given;
}

/** `value` of `--option` as an instant (ms), or a usage error naming the option and the forms it takes. */
export function parseTimeArgument(
  option: string,
  value: string,
  now: Date,
  timeZone: string,
  topic: readonly string[],
): number {
  const age = /^(\d{1,6})([mhd])$/.exec(value.trim());
  if (age) return now.getTime() - Number(age[1]) * AGE_UNITS_MS[age[2]];
  const instant = parseLocalOrInstant(value.trim(), timeZone);
  if (instant === null) {
    throw new UsageError(
      `--${option} "${display(value)}" is not a time: give a date (2026-11-23, its local midnight), a date and time (2026-11-23T09:00, local, or with an offset such as 2026-11-23T09:00:00+01:00 or Z) or an age (30m, 12h, 7d).`,
      topic,
    );
  }
  return instant;
}
