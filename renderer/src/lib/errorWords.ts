/**
 * The app's sentence for an error, in the user's language: the core sends a code and values
 * (shared/errorCodes.ts) and the catalogue words them (shared/i18n/errorSentence.ts). Where the
 * next step is one of the app's screens or buttons, the core sends a `reason` and `details` and
 * the app says where to go (the CLI says which command to run, see electron/cli/errorWords.ts).
 */
import type { AppError } from '../../../shared/errors';
import { errorSentence, joinSentences } from '../../../shared/i18n/errorSentence';
import type { RendererWords } from './i18n';

export function errorText(words: RendererWords, error: AppError): string {
  const { profileName, cause } = error.details ?? {};
  if (error.reason === 'no_key_stored' && profileName !== undefined) {
    return words('errors.app.no_key_stored', { profile: profileName });
  }
  if (error.reason === 'nothing_cached' && cause !== undefined) {
    return joinSentences(words, [errorSentence(words, cause), words('errors.app.nothing_cached')]);
  }
  return errorSentence(words, error);
}

/**
 * What the service said about each field of a 422, as it sent it (its own words, in its own
 * language: FieldErrors isolates each); and for the core's own field checks, their sentences in
 * the user's language.
 */
export function fieldProblems(
  words: RendererWords,
  error: AppError | null | undefined,
  field: string,
): string[] {
  if (!error) return [];
  const worded = error.fieldWordings?.[field];
  if (worded) return worded.map((wording) => errorSentence(words, wording));
  // Without a wording the messages are the service's (a 422) — or zod's, for developers only.
  return error.kind === 'validation' ? (error.fieldErrors?.[field] ?? []) : [];
}
