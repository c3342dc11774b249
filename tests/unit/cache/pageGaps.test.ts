/** Which unseen ids lie between two pages of a read (pageGaps.ts), in the cache's id order. */
import { describe, expect, it } from 'vitest';
import { compareIds, idsInGaps, type PageGap } from '../../../electron/core/cache/pageGaps';

describe('compareIds', () => {
  it('orders numbers numerically before text, text by its characters, ties by the text', () => {
    const ids = ['b', '10', 'a', '9', '010', '1000000000000000002', '1000000000000000001'];
    expect([...ids].sort(compareIds)).toEqual([
      '9',
      '010',
      '10',
      '1000000000000000001',
      '1000000000000000002',
      'a',
      'b',
    ]);
    expect(compareIds('7', '7')).toBe(0);
    expect(compareIds('a', '1')).toBe(1);
    expect(compareIds('1', 'a')).toBe(-1);
  });
});

describe('idsInGaps', () => {
  const gaps: PageGap[] = [
    ['100', '102'],
    ['200', '205'],
    ['300', 'a'],
  ];

  it('finds the ids strictly between the last id of a page and the first of the next', () => {
    expect(idsInGaps(['101', '203', '204', '400', '9999'], gaps)).toEqual([
      '101',
      '203',
      '204',
      '400',
      '9999',
    ]);
  });

  it('ids on a page’s edge, inside a page, before the first or after the last page are not in a gap', () => {
    expect(idsInGaps(['100', '102', '150', '200', '205', '1', 'a', 'b'], gaps)).toEqual([]);
  });

  it('finds them in the first, a middle and the last of many gaps (a binary search)', () => {
    const many: PageGap[] = Array.from({ length: 100 }, (_, i) => [String(i * 10 + 9), String(i * 10 + 12)]);
    expect(idsInGaps(['10', '11', '505', '510', '511', '999', '1000', '1001', '1002'], many)).toEqual([
      '10',
      '11',
      '510',
      '511',
      '1000',
      '1001',
    ]);
  });

  it('finds nothing without gaps (a one-page read)', () => {
    expect(idsInGaps(['1', '2'], [])).toEqual([]);
  });
});
