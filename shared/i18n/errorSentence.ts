/**
 * An error in the user's language, from its code and values (shared/errorCodes.ts): the
 * catalogue's `errors.<code>`, then each note's sentence. What the service said is shown as it
 * was sent, isolated so that its direction cannot reorder the sentence around it. The renderer
 * (renderer/src/lib/errorWords.ts, which first words the reasons whose next step is one of its
 * screens) and the main process (its dialogs) both word errors here.
 */
import { isServiceText, type ErrorValue, type Wording } from '../errorCodes';
import { isolate } from './bidi';
import type { ErrorMessageId, Words } from './messages';

/** A wording's own sentence. */
export function wordingSentence(words: Words<ErrorMessageId>, wording: Wording): string {
  const values: Record<string, ErrorValue> = {};
  for (const [name, value] of Object.entries(wording.values ?? {})) {
    values[name] = typeof value === 'string' && isServiceText(name) ? isolate(value) : value;
  }
  return words(`errors.${wording.code}` as ErrorMessageId, values);
}

/** Sentences one after another, as the language joins them ("{first} {next}"). */
export function joinSentences(words: Words<ErrorMessageId>, sentences: readonly string[]): string {
  return sentences.reduce((first, next) => words('errors.then', { first, next }));
}

/** An error's sentences: its code's, then its notes'. */
export function errorSentence(
  words: Words<ErrorMessageId>,
  error: Wording & { notes?: readonly Wording[] },
): string {
  return joinSentences(
    words,
    [error, ...(error.notes ?? [])].map((wording) => wordingSentence(words, wording)),
  );
}
