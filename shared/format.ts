/**
 * Sizes and ages in words, the same in every front end (the renderer's screens, the CLI's
 * lines). Numbers go through Intl; the words are English like the sentences around them.
 */
const LOCALE = 'en';
const oneDecimal = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB'];

/** 512 → "512 bytes", 1536 → "1.5 KB", 5 * 1024 ** 3 → "5.0 GB" (binary multiples). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) {
    return `${whole.format(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  }
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${oneDecimal.format(value)} ${BYTE_UNITS[unit]}`;
}

const durations = {
  minute: new Intl.NumberFormat(LOCALE, { style: 'unit', unit: 'minute', unitDisplay: 'long' }),
  hour: new Intl.NumberFormat(LOCALE, { style: 'unit', unit: 'hour', unitDisplay: 'long' }),
  day: new Intl.NumberFormat(LOCALE, { style: 'unit', unit: 'day', unitDisplay: 'long' }),
};

function millisecondsSince(isoTime: string, now: Date | number): number | null {
  const then = Date.parse(isoTime);
  const at = typeof now === 'number' ? now : now.getTime();
  return Number.isFinite(then) && Number.isFinite(at) ? Math.max(0, at - then) : null;
}

/**
 * How long ago an ISO time was, without "ago": "less than a minute", "1 minute",
 * "12 minutes", "3 hours" (up to two days), "2 days"; "an unknown time" for a non-date.
 */
export function ageOf(isoTime: string, now: Date | number = Date.now()): string {
  const elapsed = millisecondsSince(isoTime, now);
  if (elapsed === null) return 'an unknown time';
  const minutes = Math.floor(elapsed / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return durations.minute.format(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return durations.hour.format(hours);
  return durations.day.format(Math.floor(hours / 24));
}

/** "3 minutes ago", "less than a minute ago"; "at an unknown time" for a non-date. */
export function timeAgo(isoTime: string, now: Date | number = Date.now()): string {
  return millisecondsSince(isoTime, now) === null ? 'at an unknown time' : `${ageOf(isoTime, now)} ago`;
}
