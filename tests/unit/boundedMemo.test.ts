/**
 * BoundedMemo (core/boundedMemo.ts), behind the checked base URLs and the verdicts on field
 * names: an answer is worked out once while remembered, at most `max` are remembered, and a
 * full memory starts afresh.
 */
import { describe, expect, it } from 'vitest';
import { BoundedMemo } from '../../electron/core/boundedMemo';

function counted(max: number) {
  const asked: string[] = [];
  const memo = new BoundedMemo<string, string>(max);
  const get = (key: string) => memo.get(key, (k) => (asked.push(k), `answer to ${k}`));
  return { memo, asked, get };
}

describe('BoundedMemo', () => {
  it('works an answer out once while it is remembered', () => {
    const { memo, asked, get } = counted(3);
    expect(get('a')).toBe('answer to a');
    expect(get('a')).toBe('answer to a');
    expect(get('b')).toBe('answer to b');
    expect(asked).toEqual(['a', 'b']);
    expect(memo.size).toBe(2);
  });

  it('keeps `max` answers, and starts afresh with the next one', () => {
    const { memo, asked, get } = counted(3);
    for (const key of ['a', 'b', 'c', 'a', 'b', 'c']) get(key);
    expect(asked).toEqual(['a', 'b', 'c']);
    expect(memo.size).toBe(3);
    get('d');
    expect(memo.size).toBe(1);
    get('a');
    expect(asked).toEqual(['a', 'b', 'c', 'd', 'a']);
    expect(memo.size).toBe(2);
  });

  it('remembers false and null answers too (only undefined is none)', () => {
    const memo = new BoundedMemo<string, boolean | null>(4);
    let asked = 0;
    const find = (key: string) => (asked++, key === 'n' ? null : false);
    for (const key of ['f', 'n', 'f', 'n']) memo.get(key, find);
    expect(asked).toBe(2);
  });
});
