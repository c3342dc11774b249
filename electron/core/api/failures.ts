/**
 * Turns what went wrong with one HTTP exchange into an AppError whose message a person can
 * act on. Everything quoted from the service is sanitised (tags stripped, control characters
 * removed, shortened) and passed through the log redactor, so neither a key nor a password a
 * misbehaving service echoes back can reach the user's screen.
 */
import { appError, type AppError } from '../../../shared/errors';
import { redact } from '../log';
import { withoutControlCharacters } from '../text';

/** What a request was for, so messages can name it. */
export interface RequestContext {
  method: string;
  /** Path below the base URL, without the query string (safe to log). */
  path: string;
  /** Verb phrase for "not allowed to …": 'list reports', 'delete report 12'. */
  action: string;
  /** Set for requests about one report: 404 then means that report is gone. */
  reportId?: string;
  /** For POST/PUT/DELETE: the sentence to add when the outcome is unknown. */
  outcomeUnknown?: string;
  /** Host of the base URL, for network messages. */
  host: string;
}

const EXCERPT_LENGTH = 120;
const SERVICE_MESSAGE_LENGTH = 300;

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1).trimEnd() + '…' : text;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Plain one-line text from whatever the service sent: no tags, no control characters, no secrets. */
function plainText(raw: string): string {
  const withoutMarkup = raw
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) =>
      name === '#39' ? "'" : ENTITIES[name],
    );
  const text = withoutControlCharacters(withoutMarkup).replace(/\s+/g, ' ').trim();
  // Redact before shortening: a cut could otherwise leave part of a secret behind.
  return redact(text);
}

/** A service-provided sentence (a 422 message, a field message), made safe to show. */
function serviceText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = clip(plainText(value), SERVICE_MESSAGE_LENGTH);
  return text === '' ? undefined : text;
}

const TITLE = /<title[^>]*>([\s\S]*?)<\/title\s*>/i;

/**
 * What a reply says about itself, quoted for a message: a JSON reply's `message` or an HTML
 * page's <title>, sanitised and short. Never the raw body: a body is markup, data or a stack
 * trace, and quoting it gives "502 Bad Gateway 502 Bad Gateway nginx" or a wall of JSON.
 */
function saidBy(body: string): string | undefined {
  const head = body.slice(0, 64 * 1024);
  const json = jsonObject(head);
  const said = json ? json.message : TITLE.exec(head)?.[1];
  if (typeof said !== 'string') return undefined;
  const text = clip(plainText(said), EXCERPT_LENGTH);
  return text === '' ? undefined : text;
}

/** ', "what the reply said"' after an HTTP status, or nothing. */
function quoted(body: string): string {
  const said = saidBy(body);
  return said === undefined ? '' : `, "${said}"`;
}

/** ' ("what the reply said")' after a description of the reply, or nothing. */
function quotedAfter(body: string): string {
  const said = saidBy(body);
  return said === undefined ? '' : ` ("${said}")`;
}

function withOutcome(message: string, context: RequestContext): string {
  return context.outcomeUnknown ? `${message} ${context.outcomeUnknown}` : message;
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

function fieldErrorsFrom(errors: unknown): Record<string, string[]> | undefined {
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    const list = (Array.isArray(messages) ? messages : [messages])
      .map(serviceText)
      .filter((m): m is string => m !== undefined);
    const name = serviceText(field);
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
  if (status === 401) {
    return {
      retryable: false,
      error: appError(
        'unauthorized',
        'The Report Service rejected the API key (HTTP 401). Check that the key is complete and still valid, or create a new one in the service’s account area.',
        extra,
      ),
    };
  }
  if (status === 403) {
    return {
      retryable: false,
      error: appError(
        'forbidden',
        `The API key is not allowed to ${context.action} (HTTP 403). Ask the account holder for access, or use another key.`,
        extra,
      ),
    };
  }
  if (status === 404) {
    const message = context.reportId
      ? `Report ${context.reportId} was not found (HTTP 404). It may have been deleted; refresh the list.`
      : `The Report Service answered "not found" (HTTP 404) for ${context.path}. Check that the base URL points at the Report Service.`;
    return { retryable: false, error: appError('not_found', message, extra) };
  }
  if (status === 422) {
    const json = jsonObject(body);
    const fieldErrors = fieldErrorsFrom(json?.errors);
    const said = serviceText(json?.message);
    const message = said
      ? `The Report Service did not accept the input: ${sentence(said)} Correct it and try again.`
      : 'The Report Service did not accept the input (HTTP 422). Correct the fields it named and try again.';
    return {
      retryable: false,
      error: appError('validation', message, fieldErrors ? { ...extra, fieldErrors } : extra),
    };
  }
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), nowMs);
  const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  if (status === 429) {
    const message =
      retryAfterSeconds !== undefined && retryAfterSeconds > 0
        ? `The Report Service is receiving too many requests and asked to wait ${retryAfterSeconds} seconds (HTTP 429). Try again after that.`
        : 'The Report Service is receiving too many requests (HTTP 429). Wait a minute and try again.';
    return {
      retryable: true,
      retryAfterMs,
      error: appError('rate_limited', message, { ...extra, retryAfterSeconds }),
    };
  }
  if (status >= 500 && status <= 599) {
    return {
      retryable: true,
      retryAfterMs,
      error: appError(
        'server_error',
        withOutcome(
          `The Report Service had an internal problem (HTTP ${status}${quoted(body)}). Try again in a moment.`,
          context,
        ),
        { ...extra, retryAfterSeconds },
      ),
    };
  }
  if (status >= 300 && status <= 399) {
    const location = headers.get('location');
    const target = location ? ` to "${clip(plainText(location.slice(0, 2048)), EXCERPT_LENGTH)}"` : '';
    return {
      retryable: false,
      error: appError(
        'bad_response',
        `The Report Service address redirects (HTTP ${status})${target}. Update the base URL to the address it moved to.`,
        extra,
      ),
    };
  }
  return {
    retryable: false,
    error: appError(
      'bad_response',
      `The Report Service answered with an unexpected status (HTTP ${status}${quoted(body)}). Check the base URL, or try again later.`,
      extra,
    ),
  };
}

/** A 2xx reply whose body is not what the endpoint returns. */
export function badBody(status: number, problem: string, body: string): AppError {
  return appError(
    'bad_response',
    `The Report Service answered HTTP ${status} with ${problem}${quotedAfter(body)}. Check that the base URL points at the Report Service.`,
    { status },
  );
}

export function tooLarge(status: number, limitBytes: number, start: string): AppError {
  const megabytes = Math.round((limitBytes / 1_000_000) * 10) / 10;
  return appError(
    'bad_response',
    `The Report Service sent a reply larger than ${megabytes} MB (HTTP ${status}${quoted(start)}). Check the base URL, or ask for fewer reports per page.`,
    { status },
  );
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

/** A failure before any reply arrived: refused, reset, hung up, unknown host. */
export function networkFailure(thrown: unknown, context: RequestContext): AppError {
  const cause = causeCode(thrown);
  let what: string;
  let nothingSent = false;
  if (/ECONNREFUSED|CONNECTION_REFUSED/i.test(cause)) {
    what = 'the connection was refused';
    nothingSent = true;
  } else if (/ENOTFOUND|EAI_AGAIN|NAME_NOT_RESOLVED/i.test(cause)) {
    what = 'the host name was not found';
    nothingSent = true;
  } else if (/bad port|UNSAFE_PORT/i.test(cause)) {
    what = 'its port is one that web requests may not use; run the service on another port';
    nothingSent = true;
  } else if (/CERT|SSL|TLS/i.test(cause)) {
    what = 'its security certificate was not accepted';
    nothingSent = true;
  } else {
    what = 'the connection closed before an answer arrived';
  }
  const message = `The Report Service at ${context.host} could not be reached: ${what}. Check the network connection and the base URL.`;
  return appError('network', nothingSent ? message : withOutcome(message, context));
}

export function timeoutFailure(timeoutMs: number, context: RequestContext): AppError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return appError(
    'timeout',
    withOutcome(
      `The Report Service did not answer within ${seconds} seconds. Try again, or raise the time-out.`,
      context,
    ),
  );
}
