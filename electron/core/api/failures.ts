/**
 * Turns what went wrong with one HTTP exchange into an AppError whose message a person can
 * act on. Everything quoted from the service is sanitised (tags stripped, control characters
 * removed, shortened) and passed through the log redactor, so neither a key nor a password a
 * misbehaving service echoes back can reach the user's screen.
 */
import { appError, type AppError, type ErrorExtra, type Wording } from '../../../shared/errors';
import type { NetworkCause, ReplyProblem, RequestAction } from '../../../shared/errorCodes';
import { redact, withoutSecret } from '../log';
import { withoutControlCharacters } from '../text';

/** What a request was for, so messages can name it. */
export interface RequestContext {
  method: string;
  /** Path below the base URL, without the query string (safe to log). */
  path: string;
  /** What the request does, for "not allowed to …" (with `reportId`: "delete report 12"). */
  action: RequestAction;
  /** Set for requests about one report: 404 then means that report is gone. */
  reportId?: string;
  /** For POST/PUT/DELETE: the sentence to add when the outcome is unknown. */
  outcomeUnknown?: Wording;
  /** Host of the base URL, for network messages. */
  host: string;
  /** Secrets sent with this request (a report password): scrubbed from what the service says. */
  sentSecrets?: readonly string[];
}

const EXCERPT_LENGTH = 120;
const SERVICE_MESSAGE_LENGTH = 300;

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1).trimEnd() + '…' : text;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Plain one-line text from whatever the service sent: no tags, no control characters, no secrets. */
function plainText(raw: string, sent: readonly string[]): string {
  const withoutMarkup = raw
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) =>
      name === '#39' ? "'" : ENTITIES[name],
    );
  const text = withoutControlCharacters(withoutMarkup).replace(/\s+/g, ' ').trim();
  // Redact before shortening: a cut could otherwise leave part of a secret behind. A password
  // the request sent is scrubbed whatever its length ("The password ab is too short").
  return redact(sent.reduce(withoutSecret, text));
}

/** A short sanitised excerpt of a reply body (≤ 120 characters), '' when there is nothing. */
function excerptOf(body: string, sent: readonly string[] = []): string {
  return clip(plainText(body.slice(0, 64 * 1024), sent), EXCERPT_LENGTH);
}

/** A service-provided sentence (a 422 message, a field message), made safe to show. */
function serviceText(value: unknown, sent: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = clip(plainText(value, sent), SERVICE_MESSAGE_LENGTH);
  return text === '' ? undefined : text;
}

const TITLE = /<title[^>]*>([\s\S]*?)<\/title\s*>/i;

/**
 * What a reply says about itself, quoted for a message: a JSON reply's `message` or an HTML
 * page's <title>, sanitised and short. Never the raw body: a body is markup, data or a stack
 * trace, and quoting it gives "502 Bad Gateway 502 Bad Gateway nginx" or a wall of JSON.
 */
function saidBy(body: string, sent: readonly string[] = []): string | undefined {
  const head = body.slice(0, 64 * 1024);
  const json = jsonObject(head);
  const said = json ? json.message : TITLE.exec(head)?.[1];
  if (typeof said !== 'string') return undefined;
  const text = clip(plainText(said, sent), EXCERPT_LENGTH);
  return text === '' ? undefined : text;
}

/** A change whose outcome is unknown says so in a second sentence. */
function withOutcome(context: RequestContext, extra: ErrorExtra = {}): ErrorExtra {
  return context.outcomeUnknown ? { ...extra, notes: [context.outcomeUnknown] } : extra;
}

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : text + '.';
}

/**
 * Seconds or an HTTP date → milliseconds to wait from `nowMs`; undefined when absent or
 * unreadable. (A bare "1.5" must not be read as a date, hence the letter check.)
 */
function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function fieldErrorsFrom(errors: unknown, sent: readonly string[]): Record<string, string[]> | undefined {
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    const list = (Array.isArray(messages) ? messages : [messages])
      .map((message) => serviceText(message, sent))
      .filter((m): m is string => m !== undefined);
    const name = serviceText(field, sent);
    if (name && list.length > 0) out[name] = list;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export interface StatusFailure {
  error: AppError;
  /** Worth another attempt for a GET (rate limits, server errors). */
  retryable: boolean;
  /** The wait the service asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
}

/** The error for a non-2xx reply. */
export function failureForStatus(
  status: number,
  headers: Headers,
  body: string,
  context: RequestContext,
  nowMs: number,
): StatusFailure {
  const extra = { status };
  const sent = context.sentSecrets ?? [];
  if (status === 401) {
    return {
      retryable: false,
      error: appError('http.unauthorized', {}, extra),
    };
  }
  if (status === 403) {
    return {
      retryable: false,
      error: appError('http.forbidden', { action: context.action, id: context.reportId ?? '' }, extra),
    };
  }
  if (status === 404) {
    const error = context.reportId
      ? appError('http.report_not_found', { id: context.reportId }, extra)
      : appError('http.path_not_found', { path: context.path }, extra);
    return { retryable: false, error };
  }
  if (status === 422) {
    const json = jsonObject(body);
    const fieldErrors = fieldErrorsFrom(json?.errors, sent);
    const said = serviceText(json?.message, sent);
    const withFields = fieldErrors ? { ...extra, fieldErrors } : extra;
    return {
      retryable: false,
      error: said
        ? appError('http.validation_said', { said: sentence(said) }, withFields)
        : appError('http.validation', {}, withFields),
    };
  }
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), nowMs);
  const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  if (status === 429) {
    const withWait = { ...extra, retryAfterSeconds };
    return {
      retryable: true,
      retryAfterMs,
      error:
        retryAfterSeconds !== undefined && retryAfterSeconds > 0
          ? appError('http.rate_limited_wait', { seconds: retryAfterSeconds }, withWait)
          : appError('http.rate_limited', {}, withWait),
    };
  }
  if (status >= 500 && status <= 599) {
    const said = saidBy(body, sent);
    const more = withOutcome(context, { ...extra, retryAfterSeconds });
    return {
      retryable: true,
      retryAfterMs,
      error:
        said === undefined
          ? appError('http.server_error', { status }, more)
          : appError('http.server_error_said', { status, said }, more),
    };
  }
  if (status >= 300 && status <= 399) {
    return { retryable: false, error: redirectFailure(extra, headers.get('location')) };
  }
  const said = saidBy(body, sent);
  return {
    retryable: false,
    error:
      said === undefined
        ? appError('http.unexpected_status', { status }, extra)
        : appError('http.unexpected_status_said', { status, said }, extra),
  };
}

/**
 * The base URL redirects. Never followed (it could carry the key to another host or onto plain
 * http) and never retried. `status` is absent when the runtime only says that it refused to follow:
 * Electron's net.fetch with redirect: 'manual' rejects with "Redirect was cancelled" instead of
 * returning the 3xx (electron/electron#43715), so neither the status nor the target is known.
 */
export function redirectFailure(extra: { status?: number }, location?: string | null): AppError {
  const { status } = extra;
  if (location) {
    const target = excerptOf(location);
    return status === undefined
      ? appError('http.redirect_to', { target }, extra)
      : appError('http.redirect_to_status', { target, status }, extra);
  }
  return status === undefined
    ? appError('http.redirect', {}, extra)
    : appError('http.redirect_status', { status }, extra);
}

/** Which report a reply could not read: its field, and its place in a list (1-based) when in one. */
export interface UnreadableReport {
  field: string;
  item?: number;
}

/** A 2xx reply whose body is not what the endpoint returns. */
export function badBody(
  status: number,
  problem: Exclude<ReplyProblem, 'report' | 'list_report'> | UnreadableReport,
  body: string,
): AppError {
  const values =
    typeof problem === 'string'
      ? { status, problem, field: '', item: 0 }
      : problem.item === undefined
        ? { status, problem: 'report' as const, field: problem.field, item: 0 }
        : { status, problem: 'list_report' as const, field: problem.field, item: problem.item };
  const said = saidBy(body);
  return said === undefined
    ? appError('reply.unexpected', values, { status })
    : appError('reply.unexpected_said', { ...values, said }, { status });
}

export function tooLarge(status: number, limitBytes: number, start: string): AppError {
  const megabytes = Math.round((limitBytes / 1_000_000) * 10) / 10;
  const said = saidBy(start);
  return said === undefined
    ? appError('reply.too_large', { megabytes, status }, { status })
    : appError('reply.too_large_said', { megabytes, status, said }, { status });
}

function causeCode(thrown: unknown): string {
  const parts: string[] = [];
  let current: unknown = thrown;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') parts.push(code);
    if (typeof message === 'string') parts.push(message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(' ');
}

/** Why no answer came, from what the runtime threw. */
function networkCause(thrown: unknown): NetworkCause {
  const cause = causeCode(thrown);
  if (/ECONNREFUSED|CONNECTION_REFUSED/i.test(cause)) return 'refused';
  if (/ENOTFOUND|EAI_AGAIN|NAME_NOT_RESOLVED/i.test(cause)) return 'not_found';
  if (/bad port|UNSAFE_PORT/i.test(cause)) return 'bad_port';
  if (/CERT|SSL|TLS/i.test(cause)) return 'certificate';
  return 'closed';
}

/** A failure before any reply arrived: refused, reset, hung up, unknown host. */
export function networkFailure(thrown: unknown, context: RequestContext): AppError {
  const cause = networkCause(thrown);
  // Only a connection that closed may have carried the request: the others sent nothing.
  return appError(
    'http.unreachable',
    { host: context.host, cause },
    cause === 'closed' ? withOutcome(context) : {},
  );
}

export function timeoutFailure(timeoutMs: number, context: RequestContext): AppError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return appError('http.timeout', { seconds }, withOutcome(context));
}
