import { describe, expect, it } from 'vitest';
import { withoutControlCharacters } from '../../electron/core/text';

describe('withoutControlCharacters', () => {
  it.each([
    ['a terminal colour sequence is removed', '\u001b[31;1mred\u001b[0m', 'red'],
    ['a sequence with intermediates is removed', 'x\u001b[?25 qy', 'xy'],
    ['an unfinished sequence leaves its characters, the ESC as a space', '\u001b[12', ' [12'],
    ['other control characters become spaces', 'a\u0007b\nc\u009bd\u007fe', 'a b c d e'],
    ['printable text, accents included, is kept', 'Crème brûlée — 42!', 'Crème brûlée — 42!'],
    ['printable astral characters are kept', 'ok 🙂 𝒳', 'ok 🙂 𝒳'],
  ])('%s', (_name, input, expected) => {
    expect(withoutControlCharacters(input)).toBe(expected);
  });
});

describe('a report field that reorders what the terminal shows (bidi spoofing)', () => {
  const bidiControls = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];

  it.each(bidiControls.map((code) => [code.toString(16).toUpperCase(), code]))(
    'strips the bidi control U+%s',
    (_hex, code) => {
      // "https://evil.example/\u202Etxt.exe" would show as "…exe.txt" in a terminal.
      const field = `https://evil.example/${String.fromCodePoint(code as number)}txt.exe`;
      expect(withoutControlCharacters(field)).toBe('https://evil.example/txt.exe');
    },
  );

  it.each([
    ['zero-width space', 0x200b],
    ['left-to-right mark', 0x200e],
    ['right-to-left mark', 0x200f],
    ['Arabic letter mark', 0x061c],
    ['word joiner', 0x2060],
    ['byte-order mark', 0xfeff],
    ['soft hyphen', 0x00ad],
    ['tag character (astral)', 0xe0041],
  ])('strips the invisible format character %s', (_name, code) => {
    expect(withoutControlCharacters(`pay${String.fromCodePoint(code)}pal`)).toBe('paypal');
  });

  it('turns the Unicode line and paragraph separators into spaces', () => {
    expect(withoutControlCharacters('a\u2028b\u2029c')).toBe('a b c');
  });
});
