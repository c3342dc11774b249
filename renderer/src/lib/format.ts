/**
 * Dates, times, ages and sizes in the window's language (react-intl's Intl formatters; the words
 * around them from the catalogue). The CLI keeps its English ones in shared/format.ts.
 */
import type { RendererWords } from './i18n';

type DateStyle = 'medium' | 'full';
type TimeStyle = 'short' | 'long';

/**
 * One Intl.DateTimeFormat per language and style, made when first needed: a list of 100 rows
 * formats 200 dates, and a formatter is costly to make and cheap to use.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(
  words: RendererWords,
  dateStyle: DateStyle | undefined,
  timeStyle: TimeStyle,
): Intl.DateTimeFormat {
  const key = `${words.language} ${dateStyle} ${timeStyle}`;
  let format = dateFormats.get(key);
  if (!format) {
    // The window's time zone and the language's calendar, as react-intl's formatDate would use.
    format = new Intl.DateTimeFormat(words.language, { dateStyle, timeStyle });
    dateFormats.set(key, format);
  }
  return format;
}

function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A short local date, plus the exact time for a title attribute; null if not a date. */
export function formatDate(
  words: RendererWords,
  value: string | null | undefined,
): { text: string; exact: string } | null {
  const date = parseDate(value);
  if (!date) return null;
  return {
    text: dateFormat(words, 'medium', 'short').format(date),
    exact: dateFormat(words, 'full', 'long').format(date),
  };
}

export function formatTime(words: RendererWords, value: string): string {
  const date = parseDate(value);
  return date ? dateFormat(words, undefined, 'short').format(date) : value;
}

/** The exact date and time, for a tooltip (the value itself when it is not a date). */
export function exactTime(words: RendererWords, value: string): string {
  return formatDate(words, value)?.exact ?? value;
}

/**
 * How long ago an ISO time was, as the language says it: "less than a minute ago", "3 minutes
 * ago", "5 hours ago" (up to two days), "2 days ago".
 */
export function timeAgo(words: RendererWords, isoTime: string, now: number = Date.now()): string {
  const then = Date.parse(isoTime);
  if (!Number.isFinite(then)) return words('time.ago.unknown');
  const minutes = Math.floor(Math.max(0, now - then) / 60_000);
  if (minutes < 1) return words('time.ago.under_a_minute');
  const say = (value: number, unit: 'minute' | 'hour' | 'day') =>
    words.intl.formatRelativeTime(-value, unit, { numeric: 'always' });
  if (minutes < 60) return say(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return say(hours, 'hour');
  return say(Math.floor(hours / 24), 'day');
}

const UNITS = ['kb', 'mb', 'gb', 'tb'] as const;

/** 512 → "512 bytes", 1536 → "1.5 KB", 5 * 1024 ** 3 → "5.0 GB" (binary multiples). */
export function formatBytes(words: RendererWords, bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return words('format.bytes', { count: bytes });
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit++;
  }
  return words('format.size', { size, unit: UNITS[unit] });
}

/** Looks like an ISO-8601 date-time, so an unknown field can be shown as a local date. */
export function isIsoDateTime(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value) &&
    parseDate(value) !== null
  );
}

/** "created_at" → "Created at", "lastSeenAt" → "Last seen at": the service's own field name, readable. */
export function humanizeKey(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return spaced === '' ? key : spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
