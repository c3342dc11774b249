/** Dates in the user's locale; sizes and ages come from shared/format (the CLI uses them too). */
export { ageOf, formatBytes } from '../../../shared/format';

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

/** Looks like an ISO-8601 date-time, so an unknown field can be shown as a local date. */
export function isIsoDateTime(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value) &&
    parseDate(value) !== null
  );
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
