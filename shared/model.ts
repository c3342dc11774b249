/**
 * The zod-free part of the report model: constants, types and plain functions that the
 * renderer uses without pulling a schema library into its bundle. Environment-free.
 * The zod schemas built on these live in ./report.ts.
 */
import type { Wording } from './errorCodes';

export const REPORT_RESULTS = ['good', 'decent', 'bad'] as const;
export type ReportResult = (typeof REPORT_RESULTS)[number];

export const Privacy = { Public: 0, Private: 1, Password: 2 } as const;
export type PrivacyValue = (typeof Privacy)[keyof typeof Privacy];
export const PRIVACY_VALUES = [0, 1, 2] as const;
export const PRIVACY_NAMES = ['public', 'private', 'password'] as const;
export type PrivacyName = (typeof PRIVACY_NAMES)[number];

export function privacyFromName(name: PrivacyName): PrivacyValue {
  return PRIVACY_NAMES.indexOf(name) as PrivacyValue;
}
export function privacyName(value: PrivacyValue): PrivacyName {
  return PRIVACY_NAMES[value];
}

/** A report as the service returned it: the known fields, plus whatever else it sent. */
export interface Report {
  id: string;
  url: string;
  result?: ReportResult | null;
  generated_at?: string | null;
  privacy?: PrivacyValue | null;
  project?: string | number | null;
  [field: string]: unknown;
}
export type ReportId = string;

/** The account record: its fields are the service's. */
export type Account = Record<string, unknown>;

export const SORT_BY_VALUES = ['id', 'generated_at', 'url', 'result'] as const;
export type SortBy = (typeof SORT_BY_VALUES)[number];
export const SORT_VALUES = ['desc', 'asc'] as const;
export type SortDirection = (typeof SORT_VALUES)[number];
export const PER_PAGE_VALUES = [10, 25, 50, 100] as const;
export type PerPage = (typeof PER_PAGE_VALUES)[number];

export const LIST_DEFAULTS = {
  search_by: 'url',
  sort_by: 'id',
  sort: 'desc',
  per_page: 10,
  page: 1,
} as const;

/** The list query as a client may send it: every parameter optional. */
export interface ListQuery {
  search?: string;
  search_by?: 'url';
  project?: string;
  result?: ReportResult;
  sort_by?: SortBy;
  sort?: SortDirection;
  per_page?: PerPage;
  page?: number;
}

/** A list query with every default filled in: what the cache and the UI work with. */
export interface NormalizedListQuery {
  search: string;
  search_by: 'url';
  project: string;
  result: ReportResult | null;
  sort_by: SortBy;
  sort: SortDirection;
  per_page: PerPage;
  page: number;
}

export function normalizeListQuery(q: ListQuery = {}): NormalizedListQuery {
  return {
    search: (q.search ?? '').trim(),
    search_by: 'url',
    project: (q.project ?? '').trim(),
    result: q.result ?? null,
    sort_by: q.sort_by ?? LIST_DEFAULTS.sort_by,
    sort: q.sort ?? LIST_DEFAULTS.sort,
    per_page: q.per_page ?? LIST_DEFAULTS.per_page,
    page: q.page ?? LIST_DEFAULTS.page,
  };
}

/**
 * The query-string parameters for a list request. Parameters at their default are not sent,
 * so the service applies its own defaults and URLs stay short and cacheable.
 */
export function listQueryParams(q: ListQuery = {}): [string, string][] {
  const n = normalizeListQuery(q);
  const params: [string, string][] = [];
  if (n.search !== '') {
    params.push(['search', n.search]);
    if (q.search_by !== undefined && q.search_by !== LIST_DEFAULTS.search_by) {
      params.push(['search_by', n.search_by]);
    }
  }
  if (n.project !== '') params.push(['project', n.project]);
  if (n.result !== null) params.push(['result', n.result]);
  if (n.sort_by !== LIST_DEFAULTS.sort_by) params.push(['sort_by', n.sort_by]);
  if (n.sort !== LIST_DEFAULTS.sort) params.push(['sort', n.sort]);
  if (n.per_page !== LIST_DEFAULTS.per_page) params.push(['per_page', String(n.per_page)]);
  if (n.page !== LIST_DEFAULTS.page) params.push(['page', String(n.page)]);
  return params;
}

/** One page of reports, from the network or from the cache. */
export interface ReportPage {
  reports: Report[];
  page: number;
  perPage: number;
  /** Null when the service did not say (a bare array or `{data: [...]}` reply). */
  total: number | null;
  lastPage: number | null;
}

export const MAX_URL_LENGTH = 2048;
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_SEARCH_LENGTH = 2000;
/** The last page a list query may ask for. */
export const MAX_PAGE = 1_000_000;
export const MAX_PROJECT_LENGTH = 200;

/** What a report form finds wrong with a field: a sentence by its code (shared/errorCodes.ts). */
export type FieldProblem = Wording;

/** The password rule of create and update: needed with privacy 2 (Password), and not too long. */
export function reportPasswordProblem(privacy: PrivacyValue, password: string): FieldProblem | null {
  if (privacy !== 2) return null;
  if (password === '') return { code: 'report_password.required' };
  if (password.length > MAX_PASSWORD_LENGTH)
    return { code: 'report_password.too_long', values: { max: MAX_PASSWORD_LENGTH } };
  return null;
}

/** Checks a URL to analyse: absolute, http(s), with a host. Returns the problem or null. */
export function reportUrlProblem(raw: string): FieldProblem | null {
  const value = raw.trim();
  if (value === '') return { code: 'report_url.required' };
  if (value.length > MAX_URL_LENGTH) return { code: 'report_url.too_long', values: { max: MAX_URL_LENGTH } };
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { code: 'report_url.not_absolute' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { code: 'report_url.not_web' };
  if (parsed.hostname === '') return { code: 'report_url.no_host' };
  return null;
}
