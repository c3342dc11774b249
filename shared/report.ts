/**
 * The report model's zod schemas, shared by every front end. Environment-free: no Node, no DOM.
 * Plain constants, types and functions live in ./model (the renderer imports only those).
 *
 * The spec lists only the fields a client sends (url, result, generated_at, privacy, …) and
 * leaves the response body open, so parsing is tolerant: known fields are checked and
 * normalised, every other field the service returns is kept untouched.
 */
import { z } from 'zod';
import type { ErrorCode, ErrorValue } from './errorCodes';
import {
  MAX_PAGE,
  MAX_PASSWORD_LENGTH,
  MAX_PROJECT_LENGTH,
  MAX_SEARCH_LENGTH,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
  reportUrlProblem,
} from './model';

export * from './model';

/**
 * A schema's own message is an error code (shared/errorCodes.ts), with its values when it takes
 * some: the English sentence for the CLI and the wording the app says come from one place
 * (shared/errors.ts › issueWording, fieldErrorsFrom).
 */
export const issue = (code: ErrorCode, values?: Record<string, ErrorValue>): string =>
  values ? JSON.stringify({ code, values }) : code;

/** Ids may arrive as numbers or strings; the client treats them as opaque strings. */
export const ReportIdSchema = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => String(v))
  .pipe(
    z
      .string()
      .min(1, issue('report_id.empty'))
      .max(64, issue('report_id.too_long'))
      .regex(/^[A-Za-z0-9_-]+$/, issue('report_id.characters')),
  );

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
export type ParsedReport = z.output<typeof ReportSchema>;

/** The account record: fields are the service's; we only require an object. */
export const AccountSchema = z.record(z.string(), z.unknown());

// ---- List query -------------------------------------------------------------------------

const perPageField = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.union([z.literal(10), z.literal(25), z.literal(50), z.literal(100)], {
    error: issue('field.per_page'),
  }),
);
const pageField = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z
    .number({ error: issue('field.page') })
    .int(issue('field.page'))
    .min(1, issue('field.page'))
    .max(MAX_PAGE, issue('field.page_too_large')),
);

/** `page` is not in the spec, but a paginated list needs one; Laravel-style services use it. */
export const ListQuerySchema = z
  .object({
    search: z
      .string()
      .max(MAX_SEARCH_LENGTH, issue('field.search_too_long', { max: MAX_SEARCH_LENGTH }))
      .optional(),
    search_by: z.literal('url').optional(),
    project: z
      .string()
      .max(MAX_PROJECT_LENGTH, issue('field.project_too_long', { max: MAX_PROJECT_LENGTH }))
      .optional(),
    result: z.enum(REPORT_RESULTS).optional(),
    sort_by: z.enum(SORT_BY_VALUES).optional(),
    sort: z.enum(SORT_VALUES).optional(),
    per_page: perPageField.optional(),
    page: pageField.optional(),
  })
  .strict();
export type ParsedListQuery = z.output<typeof ListQuerySchema>;

// ---- Create / update inputs ---------------------------------------------------------------

const reportUrlField = z
  .string({ error: issue('report_url.required') })
  .transform((v) => v.trim())
  .superRefine((v, ctx) => {
    const problem = reportUrlProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: issue(problem.code, problem.values) });
  });

const privacyInput = z.union([z.literal(0), z.literal(1), z.literal(2)], {
  error: issue('field.privacy'),
});
const passwordInput = z
  .string()
  .max(MAX_PASSWORD_LENGTH, issue('report_password.too_long', { max: MAX_PASSWORD_LENGTH }));

export const CreateReportInputSchema = z
  .object({
    url: reportUrlField,
    privacy: privacyInput.default(0),
    password: passwordInput.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.privacy === 2 && !v.password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: issue('report_password.required') });
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
    results: z.union([z.literal(0), z.literal(1)], { error: issue('field.results') }).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.privacy === 2 && !v.password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: issue('report_password.required') });
    }
    if (v.password !== undefined && v.privacy !== 2) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: issue('report_password.not_used') });
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

// The schema's output must fit the plain Report interface the rest of the app uses.
const _reportFits: (r: ParsedReport) => import('./model').Report = (r) => r;
void _reportFits;
