/**
 * Calendar periods and instants in a time zone, for history (issue 27): calendar days, ISO
 * weeks (Monday first) and calendar months, each from the first instant of its first local day
 * (start inclusive) to the first instant of the next period (end exclusive), across daylight
 * saving changes and in zones whose offset is not a whole hour. The core computes the periods
 * with it, and a screen can label them with it. Environment-free: only Intl, never the
 * process's clock or environment (the caller passes the zone and "now").
 */

export const PERIOD_KINDS = ['day', 'week', 'month'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

/** A calendar date: month 1–12, day 1–31. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** A wall-clock time in a zone, without an offset. */
export interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** A period: first instant (inclusive) and the next period's first instant (exclusive), in ms. */
export interface Period {
  start: number;
  end: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MIDNIGHT = { hour: 0, minute: 0, second: 0, millisecond: 0 };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Whether `name` is a time zone this runtime knows (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone Intl uses when none is named: the system's, or the TZ variable where a runtime reads it. */
export function runtimeTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The wall-clock fields as if they were UTC, in ms (years below 100 kept as they are). */
function wallMs(t: LocalDateTime): number {
  const date = new Date(0);
  date.setUTCFullYear(t.year, t.month - 1, t.day);
  return date.setUTCHours(t.hour, t.minute, t.second, t.millisecond);
}

function wallOf(ms: number): LocalDateTime {
  const date = new Date(ms);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    millisecond: date.getUTCMilliseconds(),
  };
}

/** Offsets already asked for, per zone: consecutive periods ask for the same instants. */
const offsets = new Map<string, Map<number, number>>();
const REMEMBERED_OFFSETS = 4096;

/** The zone's offset from UTC at `instant`, in ms (east positive). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  let known = offsets.get(timeZone);
  if (!known) offsets.set(timeZone, (known = new Map()));
  const remembered = known.get(instant);
  if (remembered !== undefined) return remembered;
  const fields: Record<string, number> = {};
  // The literals' NaN is never read.
  for (const part of formatter(timeZone).formatToParts(instant)) fields[part.type] = Number(part.value);
  const wall = wallMs({
    year: fields.year,
    month: fields.month,
    day: fields.day,
    hour: fields.hour,
    minute: fields.minute,
    second: fields.second,
    millisecond: 0,
  });
  const offset = wall - Math.floor(instant / 1000) * 1000;
  if (known.size >= REMEMBERED_OFFSETS) known.clear();
  known.set(instant, offset);
  return offset;
}

/** The local wall-clock time at `instant`. */
export function localTimeOf(instant: number, timeZone: string): LocalDateTime {
  return wallOf(instant + zoneOffsetMs(instant, timeZone));
}

/**
 * The instant a wall-clock time names in a zone. A time that occurs twice (clocks turned back)
 * is its earlier occurrence; a time that does not occur (clocks turned forward) is moved on by
 * the gap, as JavaScript's Temporal does by default ("compatible").
 */
export function instantOfLocalTime(time: LocalDateTime, timeZone: string): number {
  const wall = wallMs(time);
  // At most one change of offset within a day of any real time; look on both sides of it.
  const before = zoneOffsetMs(wall - DAY_MS, timeZone);
  const after = zoneOffsetMs(wall + DAY_MS, timeZone);
  if (before === after) return wall - before;
  const candidates = [wall - before, wall - after].filter(
    (instant) => zoneOffsetMs(instant, timeZone) === wall - instant,
  );
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: the offset before it carries the time past the change.
  return wall - before;
}

function shiftDays(date: LocalDate, days: number): LocalDate {
  const { year, month, day } = wallOf(wallMs({ ...date, day: date.day + days, ...MIDNIGHT }));
  return { year, month, day };
}

/** The first instant of a local date (its midnight, or the end of a gap that swallowed it). */
export function startOfLocalDay(date: LocalDate, timeZone: string): number {
  return instantOfLocalTime({ ...date, ...MIDNIGHT }, timeZone);
}

/** Monday = 0 … Sunday = 6 (ISO order). */
function isoWeekday(date: LocalDate): number {
  return (new Date(wallMs({ ...date, ...MIDNIGHT })).getUTCDay() + 6) % 7;
}

/** The first local date of the period of `kind` that holds `date`. */
function firstDateOfPeriod(kind: PeriodKind, date: LocalDate): LocalDate {
  if (kind === 'day') return date;
  if (kind === 'week') return shiftDays(date, -isoWeekday(date));
  return { year: date.year, month: date.month, day: 1 };
}

/** The first local date of the period after the one that starts on `first`. */
function nextFirstDate(kind: PeriodKind, first: LocalDate): LocalDate {
  if (kind === 'day') return shiftDays(first, 1);
  if (kind === 'week') return shiftDays(first, 7);
  // Month 13 is January of the next year: the dates are read through Date, which carries it over.
  return { year: first.year, month: first.month + 1, day: 1 };
}

/** The period of `kind` that holds `instant`. */
export function periodOf(kind: PeriodKind, instant: number, timeZone: string): Period {
  // The local date's first instant is at or before the instant: a midnight that happens twice
  // is its first time, one that does not happen the end of the gap (instantOfLocalTime).
  const first = firstDateOfPeriod(kind, localTimeOf(instant, timeZone));
  return {
    start: startOfLocalDay(first, timeZone),
    end: startOfLocalDay(nextFirstDate(kind, first), timeZone),
  };
}

/**
 * The periods of `kind` that overlap [since, until), oldest first: from the one holding
 * `since` to the one holding the last instant before `until`. Null when there would be more
 * than `max` of them; none when `since` is not before `until`.
 */
export function periodsCovering(
  kind: PeriodKind,
  since: number,
  until: number,
  timeZone: string,
  max: number,
): Period[] | null {
  const periods: Period[] = [];
  if (since >= until) return periods;
  const first = periodOf(kind, since, timeZone);
  let firstDate = firstDateOfPeriod(kind, localTimeOf(first.start, timeZone));
  let start = first.start;
  while (start < until) {
    if (periods.length === max) return null;
    firstDate = nextFirstDate(kind, firstDate);
    const end = startOfLocalDay(firstDate, timeZone);
    periods.push({ start, end });
    start = end;
  }
  return periods;
}

/** The period kind a chart of [since, until) reads best in: days up to two months, weeks up to two years. */
export function defaultPeriodKind(since: number, until: number): PeriodKind {
  const days = (until - since) / DAY_MS;
  if (days <= 62) return 'day';
  return days <= 731 ? 'week' : 'month';
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** "+05:30", "-03:00", "+00:00" (seconds only for the odd historical offset). */
function offsetText(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const seconds = Math.abs(offsetMs) / 1000;
  const text = `${sign}${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}`;
  return seconds % 60 === 0 ? text : `${text}:${pad(seconds % 60)}`;
}

/** ISO 8601 with the zone's offset: "2025-11-03T00:00:00+01:00" (milliseconds when there are any). */
export function formatInstant(instant: number, timeZone: string): string {
  const offset = zoneOffsetMs(instant, timeZone);
  const t = wallOf(instant + offset);
  const fraction = t.millisecond === 0 ? '' : `.${pad(t.millisecond, 3)}`;
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${fraction}${offsetText(offset)}`;
}

const LOCAL_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(?:([Zz])|([+-])(\d{2}):(\d{2}))?$/;

interface ParsedText {
  time: LocalDateTime;
  hasTime: boolean;
  /** Minutes east of UTC, when the text gives an offset. */
  offsetMinutes: number | null;
}

function daysInMonth(year: number, month: number): number {
  return wallOf(wallMs({ year, month: month + 1, day: 0, ...MIDNIGHT })).day;
}

/** A date, or a date and time with or without an offset, read strictly (no day 31 in April). */
function parseDateText(text: string): ParsedText | null {
  const match = LOCAL_PATTERN.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, oh, om] = match;
  const time: LocalDateTime = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h ?? 0),
    minute: Number(mi ?? 0),
    second: Number(s ?? 0),
    millisecond: Number((fraction ?? '').padEnd(3, '0').slice(0, 3)),
  };
  const offsetMinutes = zulu ? 0 : sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : null;
  const valid =
    time.year >= 1 &&
    time.month >= 1 &&
    time.month <= 12 &&
    time.day >= 1 &&
    time.day <= daysInMonth(time.year, time.month) &&
    time.hour <= 23 &&
    time.minute <= 59 &&
    time.second <= 59 &&
    (sign === undefined || (Number(oh) <= 23 && Number(om) <= 59));
  // An offset belongs to a time of day, never to a bare date.
  const hasTime = h !== undefined;
  if (!valid || (!hasTime && offsetMinutes !== null)) return null;
  return { time, hasTime, offsetMinutes };
}

/** An ISO 8601 date and time with its offset ("…Z", "…+01:00"), strictly; null otherwise. */
export function parseInstant(text: string): number | null {
  const parsed = parseDateText(text);
  if (!parsed || parsed.offsetMinutes === null) return null;
  return wallMs(parsed.time) - parsed.offsetMinutes * MINUTE_MS;
}

/**
 * A time as a person types it, in `timeZone`: a date (its first instant, local midnight), a
 * date and local time, or a date and time with an offset. Null when it is none of these.
 */
export function parseLocalOrInstant(text: string, timeZone: string): number | null {
  const parsed = parseDateText(text);
  if (!parsed) return null;
  if (parsed.offsetMinutes !== null) return wallMs(parsed.time) - parsed.offsetMinutes * MINUTE_MS;
  return parsed.hasTime ? instantOfLocalTime(parsed.time, timeZone) : startOfLocalDay(parsed.time, timeZone);
}
