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

export const ERROR_KINDS = [
  'invalid_input',
  'unauthorized',
  'forbidden',
  'not_found',
  'validation',
  'rate_limited',
  'server_error',
  'network',
  'timeout',
  'bad_response',
  'insecure_url',
  'keychain_unavailable',
  'offline',
  'no_profile',
  'cancelled',
  'busy',
  /** The disk that holds the data (or an export) is full: details.folder, details.freeBytes. */
  'disk_full',
  /** The data folder (or an export's) cannot be written to: details.folder, details.code. */
  'read_only',
  /** A file ReportDesk keeps is damaged and could not be repaired by itself (reason, details). */
  'damaged',
  'internal',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface AppError {
  kind: ErrorKind;
  /** A sentence for a person: what happened and what to do. */
  message: string;
  /** HTTP status, when the service answered. */
  status?: number;
  /** Field name → messages, for `validation` (service 422) and `invalid_input`. */
  fieldErrors?: Record<string, string[]>;
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
    /** Why the service could not be reached (`nothing_cached`): the network or time-out sentence. */
    cause?: string;
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
    (ERROR_KINDS as readonly string[]).includes((value as AppError).kind)
  );
}

export function appError(kind: ErrorKind, message?: string, extra: Partial<AppError> = {}): AppError {
  return { kind, message: message ?? DEFAULT_MESSAGES[kind], ...extra };
}

export const DEFAULT_MESSAGES: Record<ErrorKind, string> = {
  invalid_input: 'Some of the input is not valid. Check the highlighted fields and try again.',
  unauthorized: 'The Report Service rejected the API key. Check the key, or replace it.',
  forbidden: 'The API key is not allowed to do this. Ask the account holder for access, or use another key.',
  not_found: 'The report was not found. It may have been deleted; refresh the list.',
  validation: 'The Report Service did not accept the input. Check the highlighted fields.',
  rate_limited: 'The Report Service is receiving too many requests. Wait a moment and try again.',
  server_error: 'The Report Service had an internal problem. Try again in a moment.',
  network: 'The Report Service could not be reached. Check the network connection and the base URL.',
  timeout: 'The Report Service did not answer in time. Try again, or raise the time-out.',
  bad_response: 'The Report Service sent a reply ReportDesk does not understand. Check the base URL.',
  insecure_url:
    'Plain http:// is only allowed for this computer (localhost). Use https://, or allow insecure http for this profile.',
  keychain_unavailable:
    'The system keychain is not available. Unlock or install it, or keep the key for this session only.',
  offline:
    'You are offline, so this change cannot be sent. Try again when the Report Service can be reached.',
  no_profile: 'No profile is set up yet. Add a profile with a base URL and an API key.',
  cancelled: 'The operation was cancelled.',
  busy: 'A sync of this profile is already running in another ReportDesk window or command; wait for it to finish, then try again.',
  disk_full:
    'The disk that holds ReportDesk’s data is full. Nothing was lost; free some space and try again.',
  read_only: 'ReportDesk’s data folder cannot be written to, so nothing could be saved. Reading still works.',
  damaged: 'A file ReportDesk keeps is damaged. Nothing was written over it.',
  internal: 'Something went wrong inside ReportDesk. Try again; if it keeps happening, check the logs.',
};

/** An `invalid_input` failure about one field: the message stands overall and beside the field. */
export function invalidField(field: string, message: string): AppFailure {
  return new AppFailure(appError('invalid_input', message, { fieldErrors: { [field]: [message] } }));
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
 * Schema issues (zod's `error.issues`) as a field map: each field's messages in order.
 * `keyFor` names the field as the asker knows it (the CLI names its options).
 */
export function fieldErrorsFrom(
  issues: readonly SchemaIssue[],
  keyFor: (path: readonly PropertyKey[]) => string = dottedPath,
): Record<string, string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) (fieldErrors[keyFor(issue.path)] ??= []).push(issue.message);
  return fieldErrors;
}
