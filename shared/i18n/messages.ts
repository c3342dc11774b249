/**
 * The message ids and the shape of "words" both front ends use: a function from a message id
 * (a key of the English catalogue, so a typo fails the type-check) and its ICU values to text in
 * the active language. The renderer's is react-intl's (renderer/src/lib/i18n.tsx), the main
 * process's is @formatjs/intl's (electron/core/desktop/words.ts).
 */
import type English from './catalogues/en.json';
import type { Language } from './languages';

export type MessageId = keyof typeof English;

/**
 * The messages only the main process says (the menu, notifications, its dialogs): the renderer's
 * catalogue chunks leave them out (scripts/catalogues.mjs › MAIN_ONLY), and its words cannot
 * name them.
 */
export type MainOnlyMessageId = Extract<
  MessageId,
  `menu.${string}` | `notification.${string}` | `main.${string}`
>;
export type RendererMessageId = Exclude<MessageId, MainOnlyMessageId>;
/** The sentences of errors (errors.<code>, errors.then): both front ends say them. */
export type ErrorMessageId = Extract<MessageId, `errors.${string}`>;

/** What an ICU argument takes: text, a number (plural, number), a date (date, time). */
export type MessageValues = Record<string, string | number | Date>;

export interface Words<Id extends string = MessageId> {
  (id: Id, values?: MessageValues): string;
  /** The language the words are in (a pseudo-language included). */
  readonly language: Language;
}
