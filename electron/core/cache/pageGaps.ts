/**
 * The one skip a consistent-looking read cannot show by itself (pure, no database). Pages are
 * offsets: a report deleted on the service while the list is read moves every later report
 * one place up, so the report that would have led the next page slides onto the page already
 * read and is never seen. A deletion alone changes the total (the sync reads again), but a
 * deletion and a creation during one read leave the total as it was. The skipped report then
 * lies in a gap between two pages: after the last id of one page, before the first id of the
 * next. So a cached report the read did not see, in such a gap, is asked for directly before
 * it is pruned as gone (fullSync.ts).
 */
import { idSortKey } from './records';

/** The last id of one page and the first id of the page after it. */
export type PageGap = readonly [after: string, before: string];

/** Orders ids as the cache's id_sort column does: numbers first, numerically, then text. */
export function compareIds(a: string, b: string): number {
  const x = idSortKey(a);
  const y = idSortKey(b);
  const xText = typeof x === 'string';
  const yText = typeof y === 'string';
  if (xText !== yText) return xText ? 1 : -1;
  if (x < y) return -1;
  if (x > y) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The ids (of reports the read did not see) that lie strictly inside one of the gaps. */
export function idsInGaps(ids: readonly string[], gaps: readonly PageGap[]): string[] {
  // The gaps come in page order, so they are sorted and do not overlap: one binary search each.
  return ids.filter((id) => {
    let low = 0;
    let high = gaps.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const [after, before] = gaps[middle];
      if (compareIds(id, after) <= 0) high = middle - 1;
      else if (compareIds(id, before) >= 0) low = middle + 1;
      else return true;
    }
    return false;
  });
}
