/**
 * The two pseudo-languages, made from the English catalogue's compiled messages when they are
 * loaded (no file to keep): only the text a translator would translate changes — arguments,
 * plural and select choices, `#` and tags stay as they are, so a pseudo-language formats exactly
 * as English does.
 *  - `en-XA`: every letter accented and the text about 40% longer, in brackets ("[Ŕéƥöŕţš ~~~]"):
 *    text that was not taken from a catalogue, and text that is cut off, show at a glance.
 *  - `ar-XB`: every English word written right to left (the page is `dir="rtl"`), and an arrow
 *    that shows the reading order (→) pointing the other way, as a right-to-left translation
 *    writes it: a layout that does not mirror, or text that is not isolated, shows at once.
 */
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { PseudoLanguage } from './languages';
import { rewriteCatalogue, rewriteMessage, type CompiledMessages } from './messageTree';

export type { CompiledMessages } from './messageTree';

const ACCENTED: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'î',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ö',
  p: 'ƥ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'û',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Å',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Î',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Ƥ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Û',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

/** How much longer en-XA makes a message: translations run up to 40% longer than English. */
const EXPANSION = 0.4;

// Right-to-left override … pop, inside right-to-left marks: the word reads mirrored, as Android's ar-XB.
const RLM = '\u200f';
const RLO = '\u202e';
const PDF = '\u202c';

const accent = (text: string) => text.replace(/[A-Za-z]/g, (letter) => ACCENTED[letter] ?? letter);
/**
 * The arrows that point along the reading order and that Unicode does not mirror by itself (‹ and
 * › do, see docs/TRANSLATING.md): a right-to-left translation writes them the other way round.
 */
const READING_ARROWS: Record<string, string> = { '→': '←', '←': '→' };
const mirror = (text: string) =>
  text
    .replace(/[A-Za-z][A-Za-z'’-]*/g, (word) => `${RLM}${RLO}${word}${PDF}${RLM}`)
    .replace(/[→←]/g, (arrow) => READING_ARROWS[arrow]);

/** The characters of text a message shows at most (its longest choice where it has choices). */
export function textLength(elements: readonly MessageFormatElement[]): number {
  let length = 0;
  for (const element of elements) {
    if (element.type === TYPE.literal) length += element.value.length;
    else if (element.type === TYPE.plural || element.type === TYPE.select)
      length += Math.max(0, ...Object.values(element.options).map((option) => textLength(option.value)));
    else if (element.type === TYPE.tag) length += textLength(element.children);
  }
  return length;
}

const literal = (value: string): MessageFormatElement => ({ type: TYPE.literal, value });

/** The padding's tildes come in words of at most this many: a translation is longer by words, not by one long word. */
const PADDING_WORD = 8;

function enXA(message: MessageFormatElement[]): MessageFormatElement[] {
  const length = Math.max(1, Math.ceil(textLength(message) * EXPANSION));
  const words = Array.from({ length: Math.ceil(length / PADDING_WORD) }, (_, i) =>
    '~'.repeat(Math.min(PADDING_WORD, length - i * PADDING_WORD)),
  );
  const padding = words.join(' ');
  return [literal('['), ...rewriteMessage(message, { text: accent }), literal(` ${padding}]`)];
}

/** A pseudo-language's catalogue, from the English one. */
export function pseudoMessages(english: CompiledMessages, language: PseudoLanguage): CompiledMessages {
  if (language === 'ar-XB') return rewriteCatalogue(english, { text: mirror });
  return Object.fromEntries(Object.entries(english).map(([id, message]) => [id, enXA(message)]));
}
