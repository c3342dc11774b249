/**
 * cache/historyCounts.ts › edgesOf: an instant's sums are reached from the hour edge nearest to
 * it, and that from the day edge nearest to the hour edge. Any edges would give the right sums
 * (the integration tests check the sums); these are the ones that read the fewest rows.
 */
import { describe, expect, it } from 'vitest';
import { edgesOf } from '../../../electron/core/cache/historyCounts';

const at = (iso: string) => Date.parse(iso);

describe('edgesOf', () => {
  it.each([
    ['2025-03-04T05:10:00Z', '2025-03-04T05:00:00.000Z', '2025-03-04T00:00:00.000Z'],
    ['2025-03-04T05:30:00Z', '2025-03-04T06:00:00.000Z', '2025-03-04T00:00:00.000Z'],
    ['2025-03-04T11:29:59.999Z', '2025-03-04T11:00:00.000Z', '2025-03-04T00:00:00.000Z'],
    ['2025-03-04T11:30:00Z', '2025-03-04T12:00:00.000Z', '2025-03-05T00:00:00.000Z'],
    ['2025-03-04T18:30:00Z', '2025-03-04T19:00:00.000Z', '2025-03-05T00:00:00.000Z'],
    ['2025-03-04T23:00:00Z', '2025-03-04T23:00:00.000Z', '2025-03-05T00:00:00.000Z'],
    ['2025-03-04T00:00:00Z', '2025-03-04T00:00:00.000Z', '2025-03-04T00:00:00.000Z'],
    ['1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z'],
    ['1969-12-31T10:00:00Z', '1969-12-31T10:00:00.000Z', '1969-12-31T00:00:00.000Z'],
  ])('%s: the hour edge %s, the day edge %s', (instant, hour, day) => {
    const edges = edgesOf(at(instant));
    // (-0 at the epoch's edge is the same instant.)
    expect({ at: edges.at, hour: edges.hour + 0, day: edges.day + 0 }).toEqual({
      at: at(instant),
      hour: at(hour),
      day: at(day),
    });
  });
});
