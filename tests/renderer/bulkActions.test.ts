import { appError } from '../../shared/errors';
import { describe, expect, it } from 'vitest';
import { runBulk } from '../../renderer/src/components/BulkActions';
import { CallError } from '../../renderer/src/lib/bridge';

/** An action whose calls the test settles one by one, recording how many ran at once. */
function controlledAction() {
  const pending = new Map<string, { resolve: () => void; reject: (e: unknown) => void }>();
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const action = (id: string) =>
    new Promise<void>((resolve, reject) => {
      calls.push(id);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      pending.set(id, {
        resolve: () => {
          inFlight--;
          resolve();
        },
        reject: (e) => {
          inFlight--;
          reject(e);
        },
      });
    });
  const settle = async (id: string, error?: unknown) => {
    await expect.poll(() => pending.has(id)).toBe(true);
    const entry = pending.get(id)!;
    pending.delete(id);
    if (error === undefined) entry.resolve();
    else entry.reject(error);
  };
  return { action, settle, calls, maxInFlight: () => maxInFlight };
}

describe('runBulk', () => {
  it('sends each id once, at most two at a time, and lists failures with their sentences', async () => {
    const c = controlledAction();
    const progress: number[] = [];
    const run = runBulk(['1', '2', '3', '4', '5'], c.action, (n) => progress.push(n));
    await c.settle('1');
    const failure = appError('http.server_error', { status: 500 });
    await c.settle('2', new CallError(failure));
    await c.settle('3');
    await c.settle('4');
    await c.settle('5');
    const outcome = await run;
    expect(c.calls).toEqual(['1', '2', '3', '4', '5']);
    expect(c.maxInFlight()).toBe(2);
    expect(outcome).toEqual({
      done: ['1', '3', '4', '5'],
      failed: [{ id: '2', reason: failure }],
      skipped: [],
    });
    expect(progress).toEqual([1, 2, 3, 4, 5]);
  });

  it('sends nothing more once the service cannot be reached; the rest are listed as not sent', async () => {
    const c = controlledAction();
    const run = runBulk(['1', '2', '3', '4'], c.action, () => undefined);
    await c.settle('1', new CallError(appError('offline.change_not_made')));
    await c.settle('2');
    const outcome = await run;
    expect(c.calls).toEqual(['1', '2']);
    expect(outcome.failed.map((f) => f.id)).toEqual(['1']);
    expect(outcome.done).toEqual(['2']);
    expect(outcome.skipped).toEqual(['3', '4']);
  });
});
