/**
 * The report model shared by every front end. Environment-free: no Node, no DOM.
 *
 * The spec lists only the fields a client sends (url, result, generated_at, privacy, …) and
 * leaves the response body open, so parsing is tolerant: known fields are checked and
 * normalised, every other field the service returns is kept untouched.
 */
import { z } from 'zod';

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
export const PRIVACY_LABELS: Record<PrivacyValue, string> = {
  0: 'Public',
  1: 'Private',
  2: 'Password',
};

/** Ids may arrive as numbers or strings; the client treats them as opaque strings. */
export const ReportIdSchema = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => String(v))
  .pipe(
    z
      .string()
      .min(1, 'A report id cannot be empty.')
      .max(64, 'A report id is at most 64 characters.')
      .regex(/^[A-Za-z0-9_-]+$/, 'A report id may contain only letters, digits, "-" and "_".'),
  );
export type ReportId = string;

const privacyField = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.union([z.literal(0), z.literal(1), z.literal(2)]),
);

/**
 * A report as the service returned it. `.loose()` keeps unknown fields: the spec says the
 * response fields are "not shown", so anything extra is the service's and must survive.
 */
export const ReportSchema = z
  .object({
    id: z.union([z.string().min(1), z.number()]).transform((v) => String(v)),
    url: z.string(),
    result: z.enum(REPORT_RESULTS).nullish(),
    generated_at: z.string().nullish(),
    privacy: privacyField.nullish(),
    project: z.union([z.string(), z.number()]).nullish(),
  })
  .loose();
export type Report = z.output<typeof ReportSchema>;

/** The account record: fields are the service's; we only require an object. */
export const AccountSchema = z.record(z.string(), z.unknown());
export type Account = Record<string, unknown>;

// ---- List query -------------------------------------------------------------------------

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

const perPageField = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.union([z.literal(10), z.literal(25), z.literal(50), z.literal(100)], {
    error: 'Page size must be one of 10, 25, 50 or 100.',
  }),
);
const pageField = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'Page must be a whole number from 1.' })
    .int('Page must be a whole number from 1.')
    .min(1, 'Page must be a whole number from 1.')
    .max(1_000_000, 'Page is too large.'),
);

/** `page` is not in the spec, but a paginated list needs one; Laravel-style services use it. */
export const ListQuerySchema = z
  .object({
    search: z.string().max(2000, 'Search text is at most 2000 characters.').optional(),
    search_by: z.literal('url').optional(),
    project: z.string().max(200, 'Project is at most 200 characters.').optional(),
    result: z.enum(REPORT_RESULTS).optional(),
    sort_by: z.enum(SORT_BY_VALUES).optional(),
    sort: z.enum(SORT_VALUES).optional(),
    per_page: perPageField.optional(),
    page: pageField.optional(),
  })
  .strict();
export type ListQuery = z.output<typeof ListQuerySchema>;

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

// ---- Create / update inputs ---------------------------------------------------------------

export const MAX_URL_LENGTH = 2048;
export const MAX_PASSWORD_LENGTH = 256;

/** Checks a URL to analyse: absolute, http(s), with a host. Returns a sentence or null. */
export function reportUrlProblem(raw: string): string | null {
  const value = raw.trim();
  if (value === '') return 'Enter the address to analyse.';
  if (value.length > MAX_URL_LENGTH) return `The address is longer than ${MAX_URL_LENGTH} characters.`;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return 'Enter a full address starting with http:// or https://.';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return 'Only http:// and https:// addresses can be analysed.';
  }
  if (parsed.hostname === '') return 'The address needs a host name.';
  return null;
}

const reportUrlField = z
  .string({ error: 'Enter the address to analyse.' })
  .transform((v) => v.trim())
  .superRefine((v, ctx) => {
    const problem = reportUrlProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const privacyInput = z.union([z.literal(0), z.literal(1), z.literal(2)], {
  error: 'Privacy must be 0 (public), 1 (private) or 2 (password).',
});
const passwordInput = z
  .string()
  .max(MAX_PASSWORD_LENGTH, `The password is at most ${MAX_PASSWORD_LENGTH} characters.`);

const PASSWORD_REQUIRED = 'A password-protected report needs a password.';

export const CreateReportInputSchema = z
  .object({
    url: reportUrlField,
    privacy: privacyInput.default(0),
    password: passwordInput.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.privacy === 2 && !v.password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_REQUIRED });
    }
  })
  // A password only means something with privacy 2; never send it otherwise.
  .transform((v) => (v.privacy === 2 ? v : { url: v.url, privacy: v.privacy }));
export type CreateReportInput = z.input<typeof CreateReportInputSchema>;
export type CreateReportFields = z.output<typeof CreateReportInputSchema>;

export const UpdateReportInputSchema = z
  .object({
    privacy: privacyInput.optional(),
    password: passwordInput.optional(),
    /** The spec's `results` flag (0 = No, 1 = Yes); its effect is the service's. */
    results: z
      .union([z.literal(0), z.literal(1)], { error: 'Results must be 0 (no) or 1 (yes).' })
      .optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.privacy === 2 && !v.password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_REQUIRED });
    }
    if (v.password !== undefined && v.privacy !== 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'A password is only used with privacy 2 (password).',
      });
    }
  });
export type UpdateReportInput = z.input<typeof UpdateReportInputSchema>;
export type UpdateReportFields = z.output<typeof UpdateReportInputSchema>;

/** The form body of a create or update request, in a stable order. */
export function reportFormFields(
  fields: Partial<CreateReportFields> & UpdateReportFields,
): [string, string][] {
  const out: [string, string][] = [];
  if ('url' in fields && fields.url !== undefined) out.push(['url', fields.url]);
  if (fields.privacy !== undefined) out.push(['privacy', String(fields.privacy)]);
  if (fields.password !== undefined && fields.privacy === 2) out.push(['password', fields.password]);
  if (fields.results !== undefined) out.push(['results', String(fields.results)]);
  return out;
}
