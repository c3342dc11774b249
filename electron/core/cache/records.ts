/**
 * Pure helpers for what goes into the cache: the id sort key and the secret stripping.
 * Kept apart from the SQLite code so they can be tested without a database.
 */
import type { Report } from '../../../shared/report';
import { jsonMayHoldSecrets, scrubSecrets } from '../secrets';

/**
 * The JSON text the cache stores for a record: scrubbed of secrets (by name and by value, see
 * ../secrets.ts; the API client scrubbed it already, this is the last guard), id as a string.
 */
export function recordJson(record: { id: unknown }): string {
  const plain = typeof record.id === 'string' ? record : { ...record, id: String(record.id) };
  const json = JSON.stringify(plain);
  // Almost no record holds anything secret-looking: the scrub runs only when a key or the text shows it.
  return jsonMayHoldSecrets(json, plain) ? JSON.stringify(scrubSecrets(plain)) : json;
}

/** A copy of `value` without secret-looking fields nor any secret this process knows. */
export function stripSecrets<T>(value: T): T {
  return scrubSecrets(value);
}

/**
 * The value the `id_sort` column stores. Ids are strings that are usually integers: integers
 * are stored as numbers so they sort numerically (SQLite orders every number before every
 * text), anything else as text, sorted lexically. Ties ("7" and "007") are broken by the id.
 */
export function idSortKey(id: string): number | bigint | string {
  if (!/^\d+$/.test(id)) return id;
  // Up to 15 digits a double is exact; up to 18 digits a 64-bit integer holds it.
  if (id.length <= 15) return Number(id);
  if (id.length <= 18) return BigInt(id);
  // Longer: a double keeps the order approximately; equal doubles fall back to the id text.
  return Number(id);
}

/** The project filter value of a record: the service may send a string or a number. */
export function projectOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** `text` or null, for the optional text columns. */
export function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A report row as the cache's queries read it. */
export interface ReportRow {
  id: string;
  record: string;
  fetched_at: string;
}

/** The stored record, with the row's id (always a string in the cache). */
export function parseRecord(row: ReportRow): Report {
  const report = JSON.parse(row.record) as Report;
  report.id = row.id;
  return report;
}
