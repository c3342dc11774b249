import { AppFailure } from '../../shared/errors';

/**
 * The code of a failed system or SQLite call (ENOENT, EACCES, SQLITE_BUSY…), for the sentence
 * a user reads and the log. One place for the fallback: an error without a string code (a
 * bug, something thrown that is not an Error) still gives a sentence.
 */
export function errorCode(error: unknown): string {
  const code: unknown = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : 'unknown error';
}

/** For a log line: errorCode, or an AppFailure's own code (details.code) or kind. */
export function failureCode(error: unknown): string {
  if (error instanceof AppFailure) return error.error.details?.code ?? error.error.kind;
  return errorCode(error);
}
