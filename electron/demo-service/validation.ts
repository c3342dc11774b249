/**
 * Input checks with Laravel's wording and 422 shape: `{message, errors: {field: [..]}}`.
 * Laravel's global middleware trims strings (passwords excepted) and turns empty strings into
 * null before validation; the same happens here, so `?result=` means "no filter".
 */
import {
  LIST_DEFAULTS,
  MAX_PASSWORD_LENGTH,
  MAX_URL_LENGTH,
  PER_PAGE_VALUES,
  PRIVACY_VALUES,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
  type PrivacyValue,
  type ReportResult,
  type SortBy,
  type SortDirection,
} from '../../shared/model';

export type FieldErrors = Record<string, string[]>;
export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** Laravel's summary line: the first message, plus "(and N more errors)". */
export function validationMessage(errors: FieldErrors): string {
  const all = Object.values(errors).flat();
  if (all.length === 0) return 'The given data was invalid.';
  const rest = all.length - 1;
  return rest === 0 ? all[0] : `${all[0]} (and ${rest} more ${rest === 1 ? 'error' : 'errors'})`;
}

/** An input bag: the last value wins for a repeated form or query key, as in PHP. */
export type InputBag = Record<string, unknown>;

export function bagFromSearchParams(params: URLSearchParams): InputBag {
  const bag: InputBag = {};
  for (const [key, value] of params) bag[key] = value;
  return bag;
}

const UNTRIMMED_FIELDS = new Set(['password']);

/** TrimStrings + ConvertEmptyStringsToNull, as Laravel applies them to every request. */
function normalise(bag: InputBag, field: string): unknown {
  let value = bag[field];
  if (typeof value === 'string') {
    if (!UNTRIMMED_FIELDS.has(field)) value = value.trim();
    if (value === '') value = null;
  }
  return value ?? null;
}

const attributeName = (field: string) => field.replace(/_/g, ' ');
const selectedInvalid = (field: string) => `The selected ${attributeName(field)} is invalid.`;

function oneOf<T extends string | number>(value: unknown, allowed: readonly T[]): T | undefined {
  return allowed.find((option) => String(option) === String(value) && typeof value !== 'object');
}

function isInteger(value: unknown): boolean {
  return (
    (typeof value === 'number' && Number.isInteger(value)) ||
    (typeof value === 'string' && /^[+-]?\d+$/.test(value))
  );
}

// ---- List query -------------------------------------------------------------------------

export interface ListParams {
  search: string | null;
  project: string | null;
  result: ReportResult | null;
  sortBy: SortBy;
  sort: SortDirection;
  perPage: number;
  page: number;
}

export function checkListQuery(bag: InputBag): Checked<ListParams> {
  const errors: FieldErrors = {};
  const search = normalise(bag, 'search');
  const searchBy = normalise(bag, 'search_by');
  const project = normalise(bag, 'project');
  const result = normalise(bag, 'result');
  const sortBy = normalise(bag, 'sort_by');
  const sort = normalise(bag, 'sort');
  const perPage = normalise(bag, 'per_page');
  const page = normalise(bag, 'page');

  if (searchBy !== null && oneOf(searchBy, ['url'] as const) === undefined) {
    errors.search_by = [selectedInvalid('search_by')];
  }
  if (result !== null && oneOf(result, REPORT_RESULTS) === undefined)
    errors.result = [selectedInvalid('result')];
  if (sortBy !== null && oneOf(sortBy, SORT_BY_VALUES) === undefined)
    errors.sort_by = [selectedInvalid('sort_by')];
  if (sort !== null && oneOf(sort, SORT_VALUES) === undefined) errors.sort = [selectedInvalid('sort')];
  if (perPage !== null && oneOf(perPage, PER_PAGE_VALUES) === undefined) {
    errors.per_page = [selectedInvalid('per_page')];
  }
  if (page !== null) {
    if (!isInteger(page)) errors.page = ['The page field must be an integer.'];
    else if (Number(page) < 1) errors.page = ['The page field must be at least 1.'];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  return {
    ok: true,
    value: {
      search: search === null ? null : String(search),
      project: project === null ? null : String(project),
      result: (result as ReportResult | null) ?? null,
      sortBy: (sortBy as SortBy | null) ?? LIST_DEFAULTS.sort_by,
      sort: (sort as SortDirection | null) ?? LIST_DEFAULTS.sort,
      perPage: perPage === null ? LIST_DEFAULTS.per_page : Number(perPage),
      page: page === null ? LIST_DEFAULTS.page : Number(page),
    },
  };
}

// ---- Create / update bodies -------------------------------------------------------------

function checkUrl(value: unknown): string | null {
  if (value === null) return 'The url field is required.';
  if (typeof value !== 'string') return 'The url field must be a string.';
  if (value.length > MAX_URL_LENGTH)
    return `The url field must not be greater than ${MAX_URL_LENGTH} characters.`;
  try {
    const parsed = new URL(value);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '') return null;
  } catch {
    // An unparseable address gets the same message as a non-http one.
  }
  return 'The url field must be a valid URL.';
}

function checkPrivacy(value: unknown): string | null {
  if (value === null) return null;
  if (!isInteger(value)) return 'The privacy field must be an integer.';
  return oneOf(value, PRIVACY_VALUES) === undefined ? selectedInvalid('privacy') : null;
}

function checkPassword(value: unknown, privacy: unknown): string | null {
  if (value === null) {
    return String(privacy) === '2' ? 'The password field is required when privacy is 2.' : null;
  }
  if (typeof value !== 'string') return 'The password field must be a string.';
  if (value.length > MAX_PASSWORD_LENGTH) {
    return `The password field must not be greater than ${MAX_PASSWORD_LENGTH} characters.`;
  }
  return null;
}

function collect(entries: [string, string | null][]): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, message] of entries) if (message) errors[field] = [message];
  return errors;
}

export interface CreateFields {
  url: string;
  privacy: PrivacyValue;
  /** Present only with privacy 2; a password sent with another privacy is ignored. */
  password: string | null;
}

export function checkCreate(bag: InputBag): Checked<CreateFields> {
  const url = normalise(bag, 'url');
  const privacy = normalise(bag, 'privacy');
  const password = normalise(bag, 'password');
  const errors = collect([
    ['url', checkUrl(url)],
    ['privacy', checkPrivacy(privacy)],
    ['password', checkPassword(password, privacy)],
  ]);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const privacyValue = (privacy === null ? 0 : Number(privacy)) as PrivacyValue;
  return {
    ok: true,
    value: {
      url: url as string,
      privacy: privacyValue,
      password: privacyValue === 2 ? (password as string) : null,
    },
  };
}

export interface UpdateFields {
  privacy?: PrivacyValue;
  password?: string;
  results?: boolean;
}

export function checkUpdate(bag: InputBag): Checked<UpdateFields> {
  const privacy = normalise(bag, 'privacy');
  const password = normalise(bag, 'password');
  const results = normalise(bag, 'results');
  const resultsValue = oneOf(results, [0, 1, '0', '1'] as const);
  const resultsProblem =
    results === null || typeof results === 'boolean' || resultsValue !== undefined
      ? null
      : 'The results field must be true or false.';
  const errors = collect([
    ['privacy', checkPrivacy(privacy)],
    ['password', checkPassword(password, privacy)],
    ['results', resultsProblem],
  ]);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const value: UpdateFields = {};
  if (privacy !== null) value.privacy = Number(privacy) as PrivacyValue;
  if (password !== null) value.password = password as string;
  if (results !== null) value.results = results === true || String(results) === '1';
  return { ok: true, value };
}
