/** Dates and sizes in the user's locale. */

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const exactFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A short local date, plus the exact time for a title attribute; null if not a date. */
export function formatDate(value: string | null | undefined): { text: string; exact: string } | null {
  const date = parseDate(value);
  if (!date) return null;
  return { text: dateFormat.format(date), exact: exactFormat.format(date) };
}

export function formatTime(value: string): string {
  const date = parseDate(value);
  return date ? timeFormat.format(date) : value;
}

/** "just now", "1 minute", "12 minutes", "3 hours", "2 days" since an ISO time. */
export function ageOf(value: string, now: number = Date.now()): string {
  const date = parseDate(value);
  if (!date) return 'an unknown time';
  const minutes = Math.max(0, Math.floor((now - date.getTime()) / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return hours === 1 ? '1 hour' : `${hours} hours`;
  return `${Math.floor(hours / 24)} days`;
}

/** Looks like an ISO-8601 date-time, so an unknown field can be shown as a local date. */
export function isIsoDateTime(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value) &&
    parseDate(value) !== null
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** "created_at" → "Created at", "lastSeenAt" → "Last seen at". */
export function humanizeKey(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return spaced === '' ? key : spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
