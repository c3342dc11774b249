/** Pages written in batches (cache/pageBatch.ts): when a batch is written, how big, and failures. */
import { describe, expect, it } from 'vitest';
import { PageBatch } from '../../../electron/core/cache/pageBatch';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function batchOf(max: number, fail?: (items: number[]) => boolean) {
  const written: number[][] = [];
  const failures: unknown[] = [];
  const batch = new PageBatch<number>(
    (items) => {
      if (fail?.(items)) throw new Error(`could not write ${items.join(',')}`);
      written.push(items);
    },
    max,
    (error) => failures.push(error),
  );
  return { batch, written, failures };
}

describe('PageBatch', () => {
  it('writes what was added in one turn together, when the caller next waits', async () => {
    const { batch, written } = batchOf(8);
    batch.add(1);
    batch.add(2);
    batch.add(3);
    expect(written).toEqual([]);
    await nextTurn();
    expect(written).toEqual([[1, 2, 3]]);
    batch.add(4);
    await nextTurn();
    expect(written).toEqual([[1, 2, 3], [4]]);
  });

  it('writes at once when asked to, and when a batch is full', async () => {
    const { batch, written } = batchOf(2);
    batch.add(1, true);
    expect(written).toEqual([[1]]);
    batch.add(2);
    batch.add(3);
    expect(written).toEqual([[1], [2, 3]]);
    batch.add(4);
    await nextTurn();
    expect(written).toEqual([[1], [2, 3], [4]]);
    // Nothing queued: a flush writes nothing more.
    batch.flush();
    await nextTurn();
    expect(written).toHaveLength(3);
  });

  it('flush writes what is queued now; the write scheduled before finds nothing, or what came since', async () => {
    const { batch, written } = batchOf(8);
    batch.add(1);
    batch.flush();
    expect(written).toEqual([[1]]);
    await nextTurn();
    expect(written).toEqual([[1]]);
    batch.add(2);
    batch.flush();
    batch.add(3);
    expect(written).toEqual([[1], [2]]);
    await nextTurn();
    expect(written).toEqual([[1], [2], [3]]);
  });

  it('a write between pages that fails is kept, told once, and thrown at the next add', async () => {
    const { batch, written, failures } = batchOf(8, (items) => items.includes(2));
    batch.add(1, true);
    batch.add(2);
    await nextTurn();
    expect(failures).toHaveLength(1);
    expect(batch.failed?.error).toEqual(new Error('could not write 2'));
    expect(() => batch.add(3)).toThrow('could not write 2');
    expect(written).toEqual([[1]]);
  });

  it('a write at once that fails throws to the caller, not through onFailure', () => {
    const { batch, failures } = batchOf(8, () => true);
    expect(() => batch.add(1, true)).toThrow('could not write 1');
    expect(failures).toEqual([]);
    expect(batch.failed).toBeNull();
  });
});
