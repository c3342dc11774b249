/**
 * The Report Service client: one method per endpoint, every failure an AppFailure carrying an
 * AppError a person can act on. Plain Node (no `electron`): the app injects Electron's
 * `net.fetch` (system proxy, OS certificate store), the CLI and the tests inject Node's fetch.
 *
 * Only GET is retried (network errors, time-outs, 429, 5xx), with exponential backoff and full
 * jitter, honouring Retry-After. POST/PUT/DELETE are sent once: repeating a create after a
 * lost answer could create a second report.
 */
import type { RequestAction } from '../../../shared/errorCodes';
import { AppFailure, invalidField, isErrorCode, toAppError, type AppError } from '../../../shared/errors';
import {
  LIST_DEFAULTS,
  ReportIdSchema,
  listQueryParams,
  reportFormFields,
  type Account,
  type CreateReportFields,
  type ListQuery,
  type Report,
  type ReportPage,
  type UpdateReportFields,
} from '../../../shared/report';
import { redact, registerSecret, silentLogger, type Logger } from '../log';
import { cutSecrets } from '../redaction';
import { checkedBaseUrl } from './baseUrl';
import {
  failureForStatus,
  networkFailure,
  redirectFailure,
  timeoutFailure,
  type RequestContext,
} from './failures';
import { parseJsonBody, toAccount, toReport, toReportPage } from './responses';
import { cancelledError, isRedirectRefusal, readLimitedBody, sleepWithSignal } from './transport';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 300, maxDelayMs: 10_000 };
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 20_000_000;

export interface ReportServiceClientOptions {
  baseUrl: string;
  apiKey: string;
  allowInsecureHttp?: boolean;
  /** Electron's net.fetch in the app, Node's fetch elsewhere. */
  fetch?: typeof globalThis.fetch;
  /** Per attempt, body included. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Replies larger than this are refused as bad_response. */
  maxResponseBytes?: number;
  logger?: Logger;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** False hands a 429 straight to the caller (the full sync paces its own requests). */
  retryRateLimited?: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestSpec {
  method: Method;
  /** Below the base URL, e.g. '/api/v1/reports/12'. */
  path: string;
  query?: [string, string][];
  form?: [string, string][];
  signal?: AbortSignal;
  retryRateLimited?: boolean;
  context: RequestContext;
}

interface Reply {
  status: number;
  body: string;
}

type AttemptResult =
  { ok: true; reply: Reply } | { ok: false; error: AppError; retryable: boolean; retryAfterMs?: number };

const REPORTS_PATH = '/api/v1/reports';
const ACCOUNT_PATH = '/api/v1/account';

export class ReportServiceClient {
  readonly baseUrl: string;
  private readonly host: string;
  private readonly apiKey: string;
  private readonly fetchImpl: typeof globalThis.fetch;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly maxResponseBytes: number;
  private readonly logger: Logger;

  constructor(options: ReportServiceClientOptions) {
    registerSecret(options.apiKey);
    const address = checkedBaseUrl(options.baseUrl, options.allowInsecureHttp ?? false);
    ({ baseUrl: this.baseUrl, host: this.host } = address);
    const apiKey = options.apiKey.trim();
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      // A key with spaces or line breaks cannot go into a header; fetch's own error would quote it.
      throw invalidField('apiKey', 'field.api_key_unusable');
    }
    registerSecret(apiKey);
    this.apiKey = apiKey;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw invalidField('timeout', 'field.timeout_invalid');
    }
    this.timeoutMs = timeoutMs;
    const retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.retry = {
      maxAttempts: Math.max(1, Math.floor(retry.maxAttempts)),
      baseDelayMs: Math.max(0, retry.baseDelayMs),
      maxDelayMs: Math.max(0, retry.maxDelayMs),
    };
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? sleepWithSignal;
    this.random = options.random ?? Math.random;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.logger = options.logger ?? silentLogger;
  }

  listReports(query: ListQuery = {}, options: CallOptions = {}): Promise<ReportPage> {
    return this.guard(async () => {
      const reply = await this.send({
        method: 'GET',
        path: REPORTS_PATH,
        query: listQueryParams(query),
        signal: options.signal,
        retryRateLimited: options.retryRateLimited,
        context: this.context('GET', REPORTS_PATH, 'list'),
      });
      const requested = {
        page: query.page ?? LIST_DEFAULTS.page,
        perPage: query.per_page ?? LIST_DEFAULTS.per_page,
      };
      return toReportPage(parseJsonBody(reply.status, reply.body), requested, reply.status);
    });
  }

  getReport(id: string, options: CallOptions = {}): Promise<Report> {
    return this.guard(async () => {
      const path = this.reportPath(id);
      const reply = await this.send({
        method: 'GET',
        path,
        signal: options.signal,
        context: { ...this.context('GET', path, 'get'), reportId: id },
      });
      return toReport(parseJsonBody(reply.status, reply.body), reply.status);
    });
  }

  createReport(fields: CreateReportFields): Promise<Report> {
    return this.guard(async () => {
      const password = 'password' in fields ? fields.password : undefined;
      registerSecret(password);
      const reply = await this.send({
        method: 'POST',
        path: REPORTS_PATH,
        form: reportFormFields(fields),
        context: {
          ...this.context('POST', REPORTS_PATH, 'create'),
          sentSecrets: password ? [password] : [],
          outcomeUnknown: { code: 'outcome.create' },
        },
      });
      return toReport(parseJsonBody(reply.status, reply.body), reply.status);
    });
  }

  updateReport(id: string, fields: UpdateReportFields): Promise<Report> {
    return this.guard(async () => {
      registerSecret(fields.password);
      const path = this.reportPath(id);
      const reply = await this.send({
        method: 'PUT',
        path,
        form: reportFormFields(fields),
        context: {
          ...this.context('PUT', path, 'update'),
          sentSecrets: fields.password ? [fields.password] : [],
          reportId: id,
          outcomeUnknown: { code: 'outcome.update', values: { id } },
        },
      });
      return toReport(parseJsonBody(reply.status, reply.body), reply.status);
    });
  }

  deleteReport(id: string): Promise<void> {
    return this.guard(async () => {
      const path = this.reportPath(id);
      // Any 2xx is success; a 200 with a body or a 204 without one are both common.
      await this.send({
        method: 'DELETE',
        path,
        context: {
          ...this.context('DELETE', path, 'delete'),
          reportId: id,
          outcomeUnknown: { code: 'outcome.delete', values: { id } },
        },
      });
    });
  }

  getAccount(options: CallOptions = {}): Promise<Account> {
    return this.guard(async () => {
      const reply = await this.send({
        method: 'GET',
        path: ACCOUNT_PATH,
        signal: options.signal,
        context: this.context('GET', ACCOUNT_PATH, 'account'),
      });
      return toAccount(parseJsonBody(reply.status, reply.body), reply.status);
    });
  }

  // ---- internals ------------------------------------------------------------------------

  private context(method: Method, path: string, action: RequestAction): RequestContext {
    return { method, path, action, host: this.host };
  }

  private reportPath(id: string): string {
    const parsed = ReportIdSchema.safeParse(id);
    if (!parsed.success) {
      // Stryker disable next-line OptionalChaining: issues[0]?.message → issues[0].message (its only direction): zod reports at least one issue, with a message (a code), whenever parsing fails.
      const code = parsed.error.issues[0]?.message;
      // Stryker disable next-line StringLiteral: 'report_id.characters' → '' (its only direction): the schema's every message is a code, so the fallback is never taken.
      throw invalidField('id', isErrorCode(code) ? code : 'report_id.characters');
    }
    return `${REPORTS_PATH}/${encodeURIComponent(parsed.data)}`;
  }

  /** Every failure leaves as an AppFailure, scrubbed of the key (belt and braces). */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (thrown) {
      const error = toAppError(thrown);
      throw new AppFailure(this.scrub(error));
    }
  }

  private scrub(error: AppError): AppError {
    const clean = (text: string) => redact(cutSecrets(text, [this.apiKey]));
    const fieldErrors = error.fieldErrors
      ? Object.fromEntries(Object.entries(error.fieldErrors).map(([field, list]) => [field, list.map(clean)]))
      : undefined;
    return {
      ...error,
      message: clean(error.message),
      ...(error.values ? { values: scrubbedValues(error.values, clean) } : {}),
      ...(error.notes
        ? {
            notes: error.notes.map((note) =>
              note.values ? { ...note, values: scrubbedValues(note.values, clean) } : note,
            ),
          }
        : {}),
      ...(fieldErrors ? { fieldErrors } : {}),
    };
  }

  private async send(spec: RequestSpec): Promise<Reply> {
    const maxAttempts = spec.method === 'GET' ? this.retry.maxAttempts : 1;
    for (let attempt = 1; ; attempt++) {
      if (spec.signal?.aborted) throw new AppFailure(cancelledError());
      const result = await this.attempt(spec, attempt);
      if (result.ok) return result.reply;
      if (!result.retryable || attempt >= maxAttempts) throw new AppFailure(result.error);
      if (result.error.kind === 'rate_limited' && spec.retryRateLimited === false)
        throw new AppFailure(result.error);
      let delayMs: number;
      if (result.retryAfterMs !== undefined) {
        // Waiting longer than the cap would freeze the caller; report the wait instead.
        if (result.retryAfterMs > this.retry.maxDelayMs) throw new AppFailure(result.error);
        delayMs = result.retryAfterMs;
      } else {
        const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
        delayMs = Math.floor(this.random() * ceiling);
      }
      this.logger.debug(`${spec.method} ${spec.path} retrying in ${delayMs}ms`, {
        attempt,
        kind: result.error.kind,
      });
      try {
        await this.sleep(delayMs, spec.signal);
      } catch (thrown) {
        if (spec.signal?.aborted) throw new AppFailure(cancelledError());
        throw thrown;
      }
    }
  }

  private async attempt(spec: RequestSpec, attempt: number): Promise<AttemptResult> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const onCallerAbort = () => controller.abort();
    spec.signal?.addEventListener('abort', onCallerAbort, { once: true });

    const query = spec.query && spec.query.length > 0 ? `?${new URLSearchParams(spec.query)}` : '';
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.apiKey}`,
      Accept: 'application/json',
    };
    if (spec.form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const started = Date.now();
    let outcome = 'network error';
    try {
      const response = await this.fetchImpl(this.baseUrl + spec.path + query, {
        method: spec.method,
        headers,
        body: spec.form ? new URLSearchParams(spec.form).toString() : undefined,
        signal: controller.signal,
        // Never follow a redirect: it could carry the key to another host or onto plain http.
        redirect: 'manual',
      });
      outcome = String(response.status);
      const body = await readLimitedBody(response, this.maxResponseBytes);
      if (response.status >= 200 && response.status <= 299)
        return { ok: true, reply: { status: response.status, body } };
      return {
        ok: false,
        ...failureForStatus(response.status, response.headers, body, spec.context, Date.now()),
      };
    } catch (thrown) {
      if (spec.signal?.aborted) {
        outcome = 'cancelled';
        return { ok: false, retryable: false, error: cancelledError() };
      }
      if (timedOut) {
        outcome = 'timeout';
        return { ok: false, retryable: true, error: timeoutFailure(this.timeoutMs, spec.context) };
      }
      if (thrown instanceof AppFailure) return { ok: false, retryable: false, error: thrown.error };
      if (isRedirectRefusal(thrown)) {
        outcome = 'redirect';
        return { ok: false, retryable: false, error: redirectFailure({}) };
      }
      return { ok: false, retryable: true, error: networkFailure(thrown, spec.context) };
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onCallerAbort);
      this.logger.debug(`${spec.method} ${spec.path} ${outcome} ${Date.now() - started}ms`, { attempt });
    }
  }
}

/** An error's values with every text scrubbed (numbers cannot hold a key). */
function scrubbedValues(
  values: Record<string, string | number>,
  clean: (text: string) => string,
): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, typeof value === 'string' ? clean(value) : value]),
  );
}
