/**
 * Reads a 2xx reply body into the report model. The spec leaves the bodies open, so the
 * common shapes are accepted: Laravel's paginator `{data, meta}` (or its un-wrapped form
 * with `current_page` beside `data`), `{data: [...]}`, a bare array; `{data: {...}}` or a
 * bare object for one record. Anything else is a bad_response that quotes what arrived.
 */
import { AppFailure } from '../../../shared/errors';
import {
  AccountSchema,
  REPORT_RESULTS,
  ReportSchema,
  type Account,
  type Report,
  type ReportPage,
} from '../../../shared/report';
import { jsonMayHoldSecrets, scrubSecrets } from '../secrets';
import { badBody } from './failures';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parsed bodies whose text certainly held no secret: their records skip the scrubber's walk. */
const certainlyClean = new WeakSet<object>();
/** Bodies JSON.parse made here: their records hold only JSON (own string keys, plain objects). */
const parsedBodies = new WeakSet<object>();

export function parseJsonBody(status: number, text: string): unknown {
  if (text.trim() === '') throw new AppFailure(badBody(status, 'empty', text));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new AppFailure(badBody(status, 'not_json', text));
  }
  if (typeof parsed === 'object' && parsed !== null) {
    parsedBodies.add(parsed);
    if (!jsonMayHoldSecrets(text, parsed)) certainlyClean.add(parsed);
  }
  return parsed;
}

/** Every record leaves here without secrets: the one choke point before cache, front ends, CLI. */
function withoutSecrets<T>(record: T, body: unknown): T {
  // WeakSet.has answers false for a value that is not an object (it never throws).
  return certainlyClean.has(body as object) ? record : scrubSecrets(record);
}

const RESULTS = new Set<unknown>(REPORT_RESULTS);
const SCHEMA_ORDER = ['id', 'url', 'result', 'generated_at', 'privacy', 'project'];

/**
 * What ReportSchema makes of a record JSON.parse made, in the shape services send: every field
 * of the schema there, none in a form it converts but the id. Zod cost a third of a page's
 * reading. Undefined hands the record to ReportSchema (which also names what it refuses).
 * tests/unit/api/plainReport.test.ts compares the two over random and hostile records.
 */
export function plainReport(item: unknown, owned = false): Report | undefined {
  // zod leaves an own __proto__ out (assigned, it would replace the copy's prototype).
  if (!isObject(item) || Object.hasOwn(item, '__proto__')) return undefined;
  const { id, url, result, generated_at: generatedAt, privacy, project } = item;
  const common =
    ((typeof id === 'string' && id !== '') || Number.isFinite(id)) &&
    typeof url === 'string' &&
    (result === null || RESULTS.has(result)) &&
    (generatedAt === null || typeof generatedAt === 'string') &&
    (privacy === null || privacy === 0 || privacy === 1 || privacy === 2) &&
    (project === null || typeof project === 'string' || Number.isFinite(project));
  if (!common) return undefined;
  // zod's order: the schema's fields, then the record's others in theirs. A record that starts
  // so is kept (`owned`: a body parsed here, which nothing else holds) or copied as it is; any
  // other is spread over the schema's fields.
  const report = !startsInSchemaOrder(item)
    ? { id, url, result, generated_at: generatedAt, privacy, project, ...item }
    : owned
      ? item
      : { ...item };
  report.id = String(id);
  return report as Report;
}

/** Whether a record's first fields are the schema's, in its order (the order zod's copy has). */
export function startsInSchemaOrder(item: JsonObject): boolean {
  let position = 0;
  for (const key in item) {
    if (key !== SCHEMA_ORDER[position]) break;
    position += 1;
  }
  return position === SCHEMA_ORDER.length;
}

function parseReport(item: unknown, status: number, body: unknown, position?: number): Report {
  const plain = parsedBodies.has(body as object) ? plainReport(item, true) : undefined;
  if (plain) return withoutSecrets(plain, body);
  const parsed = ReportSchema.safeParse(item);
  if (parsed.success) return withoutSecrets(parsed.data, body);
  // Stryker disable next-line OptionalChaining,StringLiteral: issues[0]?.path → issues[0].path (its only direction) only matters without an issue, and zod's safeParse never fails without one; join('.') → join('') (its only direction) only matters for a path of two segments or more, and ReportSchema is flat (a path has one segment, or none for an item that is no object).
  const path = parsed.error.issues[0]?.path.map(String).join('.');
  const field = path || 'report';
  throw new AppFailure(
    badBody(
      status,
      position === undefined ? { field } : { field, item: position + 1 },
      // Stryker disable next-line StringLiteral: the fallback '' → "Stryker was here!" (its only direction) is never reached: items come from JSON.parse, so JSON.stringify always returns text.
      JSON.stringify(item) ?? '',
    ),
  );
}

/** A whole number ≥ min, from a number or a numeric string; undefined otherwise. */
function wholeNumber(value: unknown, min: number): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= min ? n : undefined;
}

/** The page the request asked for, used when the reply does not say. */
export interface RequestedPage {
  page: number;
  perPage: number;
}

export function toReportPage(json: unknown, requested: RequestedPage, status: number): ReportPage {
  let items: unknown[];
  let meta: JsonObject | undefined;
  if (Array.isArray(json)) {
    items = json;
  } else if (isObject(json) && Array.isArray(json.data)) {
    items = json.data;
    if (isObject(json.meta)) meta = json.meta;
    else if ('current_page' in json) meta = json;
  } else {
    throw new AppFailure(badBody(status, 'not_list', JSON.stringify(json)));
  }
  const reports = items.map((item, index) => parseReport(item, status, json, index));
  if (!meta)
    return { reports, page: requested.page, perPage: requested.perPage, total: null, lastPage: null };
  const perPage = wholeNumber(meta.per_page, 1) ?? requested.perPage;
  const total = wholeNumber(meta.total, 0) ?? null;
  const lastPage =
    wholeNumber(meta.last_page, 1) ?? (total === null ? null : Math.max(1, Math.ceil(total / perPage)));
  return { reports, page: wholeNumber(meta.current_page, 1) ?? requested.page, perPage, total, lastPage };
}

/** `{data: {...}}` → its data; a bare record (one with its own id) stays as it is. */
function unwrapRecord(json: unknown): unknown {
  return isObject(json) && isObject(json.data) && !('id' in json) ? json.data : json;
}

export function toReport(json: unknown, status: number): Report {
  const record = unwrapRecord(json);
  if (!isObject(record)) {
    throw new AppFailure(badBody(status, 'not_report', JSON.stringify(json)));
  }
  return parseReport(record, status, json);
}

export function toAccount(json: unknown, status: number): Account {
  const parsed = AccountSchema.safeParse(unwrapRecord(json));
  // A zod record refuses arrays and null itself.
  if (!parsed.success) {
    throw new AppFailure(badBody(status, 'not_account', JSON.stringify(json)));
  }
  return withoutSecrets(parsed.data, json);
}
