/**
 * The list query without zod, when it is already plain: the list is the busiest channel, and
 * zod's first call after a request cost about 15 µs of the 0.13 ms the gateway added to a list
 * request (docs/PERFORMANCE.md). Environment-free, like the schema it mirrors.
 */
import {
  ListQuerySchema,
  MAX_PAGE,
  MAX_PROJECT_LENGTH,
  PER_PAGE_VALUES,
  MAX_SEARCH_LENGTH,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
  type ParsedListQuery,
} from './report';

const oneOf =
  (values: readonly unknown[]) =>
  (value: unknown): boolean =>
    values.includes(value);

/** Each list field's test for a value already in its plain form: the schema's rules, no conversion. */
const PLAIN_LIST_FIELDS: Record<keyof ParsedListQuery, (value: unknown) => boolean> = {
  search: (v) => typeof v === 'string' && v.length <= MAX_SEARCH_LENGTH,
  search_by: (v) => v === 'url',
  project: (v) => typeof v === 'string' && v.length <= MAX_PROJECT_LENGTH,
  result: oneOf(REPORT_RESULTS),
  sort_by: oneOf(SORT_BY_VALUES),
  sort: oneOf(SORT_VALUES),
  per_page: oneOf(PER_PAGE_VALUES),
  page: (v) => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= MAX_PAGE,
};
const PLAIN_LIST_ORDER = Object.keys(ListQuerySchema.shape) as (keyof ParsedListQuery)[];

/**
 * What ListQuerySchema makes of a query already in its plain form (a plain object, every field
 * known, valid and not needing conversion), or undefined: the schema then reads it and names
 * what it refuses. tests/unit/ipc/plainListQuery.test.ts compares the two over random and
 * hostile queries.
 */
export function plainListQuery(input: unknown): ParsedListQuery | undefined {
  if (typeof input !== 'object' || input === null || Object.getPrototypeOf(input) !== Object.prototype)
    return undefined;
  const fields = input as Record<string, unknown>;
  // Read as the schema reads: a field is there when `in` says so, inherited or not.
  let present = 0;
  for (const key of PLAIN_LIST_ORDER) {
    if (!(key in fields)) continue;
    if (!PLAIN_LIST_FIELDS[key](fields[key])) return undefined;
    present += 1;
  }
  // Another key (the schema is strict), or a known one hidden from enumeration: the schema decides.
  let enumerable = 0;
  for (const _key in fields) enumerable += 1;
  if (enumerable !== present) return undefined;
  const query: Record<string, unknown> = {};
  // The schema's output order.
  for (const key of PLAIN_LIST_ORDER) if (key in fields) query[key] = fields[key];
  return query as ParsedListQuery;
}
