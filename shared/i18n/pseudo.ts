/**
 * The two pseudo-languages, made from the English catalogue's compiled messages when they are
 * loaded (no file to keep): only the text a translator would translate changes — arguments,
 * plural and select choices, `#` and tags stay as they are, so a pseudo-language formats exactly
 * as English does.
 *  - `en-XA`: every letter accented and the text about 40% longer, in brackets ("[Ŕéƥöŕţš ~~~]"):
 *    text that was not taken from a catalogue, and text that is cut off, show at a glance.
 *  - `ar-XB`: every English word written right to left (the page is `dir="rtl"`): a layout that
 *    does not mirror, or text that is not isolated, shows at once.
 */
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { PseudoLanguage } from './languages';

export type CompiledMessages = Record<string, MessageFormatElement[]>;

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
const mirror = (text: string) =>
  text.replace(/[A-Za-z][A-Za-z'’-]*/g, (word) => `${RLM}${RLO}${word}${PDF}${RLM}`);

/** The message with each piece of text changed by `change`; everything else kept. */
function mapText(elements: MessageFormatElement[], change: (text: string) => string): MessageFormatElement[] {
  return elements.map((element) => {
    switch (element.type) {
      case TYPE.literal:
        return { ...element, value: change(element.value) };
      case TYPE.plural:
      case TYPE.select:
        return {
          ...element,
          options: Object.fromEntries(
            Object.entries(element.options).map(([key, option]) => [
              key,
              { ...option, value: mapText(option.value, change) },
            ]),
          ),
        };
      case TYPE.tag:
        return { ...element, children: mapText(element.children, change) };
      default:
        return element;
    }
  });
}

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

function enXA(message: MessageFormatElement[]): MessageFormatElement[] {
  const padding = '~'.repeat(Math.max(1, Math.ceil(textLength(message) * EXPANSION)));
  return [literal('['), ...mapText(message, accent), literal(` ${padding}]`)];
}

function arXB(message: MessageFormatElement[]): MessageFormatElement[] {
  return mapText(message, mirror);
}

/** A pseudo-language's catalogue, from the English one. */
export function pseudoMessages(english: CompiledMessages, language: PseudoLanguage): CompiledMessages {
  const change = language === 'en-XA' ? enXA : arXB;
  return Object.fromEntries(Object.entries(english).map(([id, message]) => [id, change(message)]));
}
