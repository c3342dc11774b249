/**
 * One error model for everything a user can meet, in every front end. Errors cross IPC as
 * plain values (`Result`), never as thrown Errors: Electron keeps only an Error's message.
 * Every message is a sentence that says what happened and what to do. None ever contains
 * an API key or a report password.
 *
 * The core's sentences name no screen, button or command of any front end: where what to do
 * depends on the front end, the error carries a `reason` and `details`, and each front end
 * (renderer/src/lib/errorWords.ts, electron/cli/errorWords.ts) words it its own way.
 */

import {
  ERROR_KINDS,
  englishOf,
  isErrorCode,
  kindOf,
  type ErrorCode,
  type ErrorKind,
  type ErrorValue,
  type ErrorValuesOf,
  type Wording,
} from './errorCodes';

export {
  ERROR_KINDS,
  englishOf,
  isErrorCode,
  type ErrorCode,
  type ErrorKind,
  type Wording,
} from './errorCodes';

export interface AppError extends Wording {
  kind: ErrorKind;
  /**
   * The sentence in English, for the CLI and the logs: the code's sentence, then each note's. The
   * app words the error from `code`, `values` and `notes` in the user's language instead.
   */
  message: string;
  /** Sentences that follow the code's own (a change whose outcome is unknown says so). */
  notes?: Wording[];
  /** HTTP status, when the service answered. */
  status?: number;
  /**
   * Field name → messages: the service's own words on a 422 (shown as sent), or the English of
   * `fieldWordings` for `invalid_input`.
   */
  fieldErrors?: Record<string, string[]>;
  /** Field name → what the core found wrong with it, by code (the app words these). */
  fieldWordings?: Record<string, Wording[]>;
  /** Seconds the service asked us to wait, for `rate_limited`. */
  retryAfterSeconds?: number;
  /**
   * A finer reason within the kind, for front ends that word it their own way: the CLI points
   * at its own commands where the app points at a screen.
   */
  reason?:
    | 'no_key_stored'
    | 'key_required'
    | 'sync_running'
    | 'sync_taken_over'
    | 'paging_ignored'
    | 'page_limit'
    | 'nothing_cached'
    /** `damaged`: profiles.json cannot be read and there is no backup; nothing is written until the user agrees to start afresh. */
    | 'profiles_damaged'
    /** `internal`: the offline copy was damaged, set aside and started afresh during this call. */
    | 'cache_reset';
  /** What a front end needs to word the reason: never a key or a password. */
  details?: {
    /** The profile the error is about (`no_key_stored`). */
    profileName?: string;
    /** Why the service could not be reached (`nothing_cached`): the network or time-out error. */
    cause?: AppError;
    /** The folder on the full or read-only disk (`disk_full`, `read_only`). */
    folder?: string;
    /** Whose folder it is: ReportDesk's data folder, or one an export was to be saved in. */
    place?: 'data_folder' | 'export';
    /** Bytes still free on that disk (`disk_full`), when the OS says. */
    freeBytes?: number;
    /** Reports of this profile available offline, untouched by the failed write (`disk_full`, `read_only`). */
    offlineReports?: number;
    /** The system's code for the failure (ENOSPC, EROFS, SQLITE_READONLY…), for the log and support. */
    code?: string;
    /** The damaged file (`profiles_damaged`). */
    file?: string;
    /** Where the damaged file's copy was set aside (`profiles_damaged`). */
    asideAs?: string;
  };
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (error: AppError): Result<never> => ({ ok: false, error });

/** A thrown carrier for an AppError inside one process; converted to a Result at the edge. */
export class AppFailure extends Error {
  readonly error: AppError;
  constructor(error: AppError) {
    super(error.message);
    this.name = 'AppFailure';
    this.error = error;
  }
}

export function isAppError(value: unknown): value is AppError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AppError).message === 'string' &&
    // Not checked against the table of codes: the renderer ships without its English sentences.
    typeof (value as AppError).code === 'string' &&
    (ERROR_KINDS as readonly string[]).includes((value as AppError).kind)
  );
}

/** What an error may carry besides its code, values and kind. */
export type ErrorExtra = Partial<
  Pick<
    AppError,
    'notes' | 'status' | 'fieldErrors' | 'fieldWordings' | 'retryAfterSeconds' | 'reason' | 'details'
  >
>;

type ValuesArgs<C extends ErrorCode> =
  Record<never, never> extends ErrorValuesOf<C>
    ? [values?: ErrorValuesOf<C> & object, extra?: ErrorExtra]
    : [values: ErrorValuesOf<C> & object, extra?: ErrorExtra];

/** An error by its code: its kind and English sentence come from shared/errorCodes.ts. */
export function appError<C extends ErrorCode>(code: C, ...[values, extra]: ValuesArgs<C>): AppError {
  const wording: Wording =
    values && Object.keys(values).length > 0
      ? { code, values: values as Record<string, ErrorValue> }
      : { code };
  return wordedError(wording, extra);
}

/** An error from a wording made elsewhere (a shared rule's answer, a schema's issue). */
export function wordedError(wording: Wording, extra: ErrorExtra = {}): AppError {
  const sentences = [englishOf(wording), ...(extra.notes ?? []).map(englishOf)];
  return { kind: kindOf(wording.code), ...wording, message: sentences.join(' '), ...extra };
}

/**
 * An error only the CLI meets (its options, its stdin, its data folder): an English sentence of
 * its own. Should one ever reach the app, the app words it by its kind's own sentence.
 */
export function englishOnlyError(kind: ErrorKind, message: string, extra: ErrorExtra = {}): AppError {
  return { kind, code: kind, message, ...extra };
}

/** An `invalid_input` failure about one field: the sentence stands overall and beside the field. */
export function fieldFailure(field: string, wording: Wording): AppFailure {
  const error = wordedError(wording);
  return new AppFailure({
    ...error,
    kind: 'invalid_input',
    fieldErrors: { [field]: [error.message] },
    fieldWordings: { [field]: [wording] },
  });
}

/** `fieldFailure` by code and values. */
export function invalidField<C extends ErrorCode>(
  field: string,
  code: C,
  ...[values]: ValuesArgs<C>
): AppFailure {
  return fieldFailure(
    field,
    values && Object.keys(values).length > 0
      ? { code, values: values as Record<string, ErrorValue> }
      : { code },
  );
}

/** Turns anything thrown into an AppError without leaking stack traces. */
export function toAppError(thrown: unknown): AppError {
  if (thrown instanceof AppFailure) return thrown.error;
  if (isAppError(thrown)) return thrown;
  return appError('internal');
}

/** A short description of a 422 field map, e.g. "url: The url must be a valid URL." */
export function describeFieldErrors(fieldErrors: Record<string, string[]> | undefined): string {
  if (!fieldErrors) return '';
  return Object.entries(fieldErrors)
    .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
    .join('\n');
}

/** What `fieldErrorsFrom` needs of a zod issue (structural, so this module stays zod-free). */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** A field's key by default: its dotted path, or "_" for the input as a whole. */
export const dottedPath = (path: readonly PropertyKey[]): string =>
  path.length > 0 ? path.map(String).join('.') : '_';

/**
 * Schema issues (zod's `error.issues`) as a field map: each field's messages in order, in English
 * (a schema's own messages are error codes, see shared/report.ts; zod's built-in ones are kept).
 * `keyFor` names the field as the asker knows it (the CLI names its options).
 */
export function fieldErrorsFrom(
  issues: readonly SchemaIssue[],
  keyFor: (path: readonly PropertyKey[]) => string = dottedPath,
): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) (fieldErrors[keyFor(issue.path)] ??= []).push(issueEnglish(issue.message));
  return fieldErrors;
}

/** The schema's own messages by field, as wordings the app says (zod's built-in ones left out). */
export function fieldWordingsFrom(issues: readonly SchemaIssue[]): Record<string, Wording[]> {
  const wordings: Record<string, Wording[]> = {};
  for (const issue of issues) {
    const wording = issueWording(issue.message);
    if (wording) (wordings[dottedPath(issue.path)] ??= []).push(wording);
  }
  return wordings;
}

/** A schema issue's message as a wording: a code, or a code with values (shared/report.ts › issue); null for zod's own. */
export function issueWording(message: string): Wording | null {
  if (isErrorCode(message)) return { code: message };
  if (!message.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(message) as Partial<Wording>;
    return isErrorCode(parsed.code) && typeof parsed.values === 'object' && parsed.values !== null
      ? { code: parsed.code, values: parsed.values }
      : null;
  } catch {
    return null;
  }
}

/** A schema issue's message in English: its code's sentence, or zod's own words made a sentence. */
export function issueEnglish(message: string): string {
  const wording = issueWording(message);
  if (wording) return englishOf(wording);
  // zod's built-in messages ("Invalid input: expected string…") are for developers.
  return /^(Invalid|Unrecognized|Too (big|small)|Expected)/.test(message)
    ? englishOf({
        code: 'field.invalid',
        values: { detail: message.charAt(0).toLowerCase() + message.slice(1) },
      })
    : message;
}
