/**
 * cache/history.ts › the order of Compare's URLs: code point order, as SQLite orders text. Where
 * no URL has a UTF-16 unit from U+D800 on, JavaScript's own comparison gives that order at a
 * third of the cost, so that one is chosen; the integration tests check the order end to end.
 */
import { describe, expect, it } from 'vitest';
import { byCodePoint, byUnit, codePointOrderFor } from '../../../electron/core/cache/history';

describe('byUnit', () => {
  it('is JavaScript’s own comparison: before, after, equal', () => {
    expect(byUnit('https://a.example/', 'https://b.example/')).toBe(-1);
    expect(byUnit('https://b.example/', 'https://a.example/')).toBe(1);
    expect(byUnit('https://a.example/', 'https://a.example/')).toBe(0);
    expect(['b', 'B', 'a', 'ab'].sort(byUnit)).toEqual(['B', 'a', 'ab', 'b']);
  });
});

describe('codePointOrderFor', () => {
  it('takes JavaScript’s own comparison while every unit is below U+D800', () => {
    expect(codePointOrderFor([])).toBe(byUnit);
    expect(codePointOrderFor(['https://a.example/', 'https://b.example/%E2%82%AC'])).toBe(byUnit);
    expect(codePointOrderFor(['https://x.example/\uD7FF', 'https://a.example/'])).toBe(byUnit);
  });

  it('takes the code point comparison once any key has a surrogate or a unit from U+E000 on', () => {
    expect(codePointOrderFor(['https://a.example/', 'https://x.example/\uD800'])).toBe(byCodePoint);
    expect(codePointOrderFor(['https://x.example/\u{1F600}'])).toBe(byCodePoint);
    expect(codePointOrderFor(['https://x.example/\uE000', 'https://a.example/'])).toBe(byCodePoint);
    expect(codePointOrderFor(['https://x.example/\uFFFF'])).toBe(byCodePoint);
  });

  it('orders as byCodePoint would in both cases', () => {
    const ascii = ['https://x.example/b', 'https://x.example/B', 'https://x.example/a'];
    expect([...ascii].sort(codePointOrderFor(ascii))).toEqual([...ascii].sort(byCodePoint));
    const wide = ['https://x.example/\u{1F600}', 'https://x.example/\uFF5E', 'https://x.example/a'];
    expect([...wide].sort(codePointOrderFor(wide))).toEqual([
      'https://x.example/a',
      'https://x.example/\uFF5E',
      'https://x.example/\u{1F600}',
    ]);
  });
});
