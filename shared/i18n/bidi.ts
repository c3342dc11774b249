/**
 * User data inside sentences (issue 28): a URL, a profile's or a project's name, what the service
 * said keeps its own direction and cannot reorder the sentence around it. Unicode's isolates do
 * that in plain text (titles, announcements, menus, notifications alike): FIRST STRONG ISOLATE
 * (U+2068) … POP DIRECTIONAL ISOLATE (U+2069), the text's direction taken from its first letter.
 *
 * Isolation changes what is drawn only where directions mix, so:
 *  - in a right-to-left language every plain `{argument}` of every message is isolated (the
 *    catalogue is rewritten once, when loaded: selects, plurals, numbers and dates are the
 *    message's own and stay as they are);
 *  - in a left-to-right language a value is isolated when it holds right-to-left text (an Arabic
 *    project name in an English sentence); left-to-right values read as they are, so English
 *    text, and every test that reads it, stays byte for byte what it was.
 */
import { directionOf, type Language } from './languages';
import { rewriteCatalogue, type CompiledMessages } from './messageTree';
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

export const FIRST_STRONG_ISOLATE = '\u2068';
export const POP_DIRECTIONAL_ISOLATE = '\u2069';

/** The text isolated from what surrounds it, keeping the direction of its first letter. */
export function isolate(text: string): string {
  return `${FIRST_STRONG_ISOLATE}${text}${POP_DIRECTIONAL_ISOLATE}`;
}

/** Whether the text is one isolate already (what the service said is isolated before it is worded). */
function isIsolated(text: string): boolean {
  return /^[\u2066-\u2068]/.test(text) && text.endsWith(POP_DIRECTIONAL_ISOLATE);
}

/**
 * A letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic,
 * their presentation forms, and the historic scripts of U+10800–U+10FFF and U+1E800–U+1EFFF), or
 * a mark or control that makes text right to left.
 */
const RIGHT_TO_LEFT =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}\u200f\u202b\u202e\u2067]/u;

/** Whether the text holds right-to-left writing. */
export function hasRightToLeft(text: string): boolean {
  return RIGHT_TO_LEFT.test(text);
}

const isolateArgument = (element: MessageFormatElement): MessageFormatElement[] => [
  { type: TYPE.literal, value: FIRST_STRONG_ISOLATE },
  element,
  { type: TYPE.literal, value: POP_DIRECTIONAL_ISOLATE },
];

/** A language's compiled messages as its pages show them: in a right-to-left one, every plain argument isolated. */
export function bidiMessages(messages: CompiledMessages, language: Language): CompiledMessages {
  return directionOf(language) === 'rtl'
    ? rewriteCatalogue(messages, { argument: isolateArgument })
    : messages;
}

/**
 * The values of a message in a left-to-right language: those that hold right-to-left text
 * isolated (a right-to-left language's messages isolate every argument themselves). Only text
 * is changed, so a select's key (always a plain identifier) and every number or date are kept.
 */
export function bidiValues<V>(
  values: Record<string, V> | undefined,
  language: Language,
): Record<string, V> | undefined {
  if (values === undefined || directionOf(language) === 'rtl') return values;
  let changed: Record<string, V> | undefined;
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' && hasRightToLeft(value) && !isIsolated(value)) {
      changed ??= { ...values };
      changed[name] = isolate(value) as V;
    }
  }
  return changed ?? values;
}
