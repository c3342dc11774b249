/**
 * Pure helpers for what goes into the cache: the id sort key and the secret stripping.
 * Kept apart from the SQLite code so they can be tested without a database.
 */

/** Keys that may hold a secret; never written to the cache, at any depth of a record. */
const SECRET_KEY = /^(password|api[_-]?key|api[_-]?token|access[_-]?token|secret)$/i;

/** A secret-looking key anywhere in a JSON text: the cheap test before a deep copy. */
const SECRET_KEY_IN_JSON = /"(password|api[_-]?key|api[_-]?token|access[_-]?token|secret)"\s*:/i;

/**
 * The JSON text the cache stores for a record: without secret-looking keys, id as a string.
 * Almost no record has such a key, so the deep copy is made only when the text shows one.
 */
export function recordJson(record: { id: unknown }): string {
  const plain = typeof record.id === 'string' ? record : { ...record, id: String(record.id) };
  const json = JSON.stringify(plain);
  return SECRET_KEY_IN_JSON.test(json) ? JSON.stringify(stripSecrets(plain)) : json;
}

/** A deep copy of `value` without any secret-looking key. */
export function stripSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => stripSecrets(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (!SECRET_KEY.test(key)) out[key] = stripSecrets(inner);
    }
    return out as T;
  }
  return value;
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
