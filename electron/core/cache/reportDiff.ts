/**
 * What changed in a report, as the change log records it (pure, no database): the fields a
 * user watches — result, privacy, URL, project and generated date — before and after. Every
 * other field (a score, an update time) changes too often to be news.
 */
import type { ChangeFields } from '../../../shared/contract';
import type { Report } from '../../../shared/report';

/** The watched fields, in the order the log and the front ends list them. */
export const WATCHED_FIELDS = ['result', 'privacy', 'url', 'project', 'generated_at'] as const;

/** A field's value as the log keeps it: null when the record has none. */
function valueOf(record: Report, field: string): unknown {
  return record[field] ?? null;
}

/** Equal as the service sent them: the values are plain JSON (text, numbers, null). */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The watched fields that differ, before → after; null when none does. */
export function changedFields(before: Report, after: Report): ChangeFields | null {
  let fields: ChangeFields | null = null;
  for (const field of WATCHED_FIELDS) {
    const was = valueOf(before, field);
    const now = valueOf(after, field);
    if (!same(was, now)) (fields ??= {})[field] = { before: was, after: now };
  }
  return fields;
}

/** A report that appeared: its watched fields, each from null. */
export function addedFields(after: Report): ChangeFields {
  const fields: ChangeFields = {};
  for (const field of WATCHED_FIELDS) {
    const now = valueOf(after, field);
    if (now !== null) fields[field] = { before: null, after: now };
  }
  return fields;
}

/** A report that is gone: its watched fields, each to null. */
export function removedFields(before: Report): ChangeFields {
  const fields: ChangeFields = {};
  for (const field of WATCHED_FIELDS) {
    const was = valueOf(before, field);
    if (was !== null) fields[field] = { before: was, after: null };
  }
  return fields;
}

/** Bad news worth a notification: a new report that is bad, or a report whose result turned bad. */
export function isBadNews(kind: 'added' | 'changed' | 'removed', fields: ChangeFields): boolean {
  if (kind === 'removed') return false;
  return fields.result?.after === 'bad' && fields.result.before !== 'bad';
}
