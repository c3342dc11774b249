import { describe, expect, it } from 'vitest';
import { withoutControlCharacters } from '../../../electron/core/text';

describe('withoutControlCharacters', () => {
  it.each([
    ['a terminal colour sequence is removed', '\u001b[31;1mred\u001b[0m', 'red'],
    ['a sequence with intermediates is removed', 'x\u001b[?25 qy', 'xy'],
    ['an unfinished sequence leaves its characters, the ESC as a space', '\u001b[12', ' [12'],
    ['other control characters become spaces', 'a\u0007b\nc\u009bd\u007fe', 'a b c d e'],
    ['printable text, accents included, is kept', 'Crème brûlée — 42!', 'Crème brûlée — 42!'],
  ])('%s', (_name, input, expected) => {
    expect(withoutControlCharacters(input)).toBe(expected);
  });
});
