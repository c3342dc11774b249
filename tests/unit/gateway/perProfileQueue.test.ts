import { describe, expect, it } from 'vitest';
import { PerProfileQueue } from '../../../electron/core/gateway/perProfileQueue';

/** A promise the test settles by hand, to hold a turn open. */
function gate<T = void>() {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe('PerProfileQueue', () => {
  it("runs one profile's changes one after another, in the order asked", async () => {
    const queue = new PerProfileQueue();
    const log: string[] = [];
    const first = gate();
    const a = queue.run('p', async () => {
      log.push('a starts');
      await first.promise;
      log.push('a ends');
      return 'a';
    });
    const b = queue.run('p', async () => {
      log.push('b starts');
      return 'b';
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    first.open();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts']);
    // The entry is cleared a few microtasks after the last turn; one macrotask covers them.
    await new Promise(setImmediate);
    expect(queue.pending).toBe(0);
  });

  it("does not hold up another profile's changes", async () => {
    const queue = new PerProfileQueue();
    const held = gate();
    const p = queue.run('p', () => held.promise.then(() => 'p'));
    expect(await queue.run('q', async () => 'q')).toBe('q');
    held.open();
    expect(await p).toBe('p');
  });

  it('lets a failure end only its own turn', async () => {
    const queue = new PerProfileQueue();
    const failing = gate();
    const a = queue.run('p', () => failing.promise);
    const b = queue.run('p', async () => 'after the failure');
    failing.fail(new Error('the keychain refused'));
    await expect(a).rejects.toThrow('the keychain refused');
    expect(await b).toBe('after the failure');
    await new Promise(setImmediate);
    expect(queue.pending).toBe(0);
  });
});
