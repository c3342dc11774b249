/** What a restart waits for: the core's sync and export, and report writes (a bulk change). */
import { describe, expect, it } from 'vitest';
import type { ContractHandlers } from '../../../shared/contract';
import {
  ChangeTracker,
  CHANGES_QUIET_MS,
  coreWorkActivity,
  trackChanges,
} from '../../../electron/core/updates/workActivity';

describe('ChangeTracker', () => {
  it('is busy while a write runs and for a quiet moment after the last one', async () => {
    let now = 1_000;
    const tracker = new ChangeTracker(() => now);
    expect(tracker.busy).toBe(false);
    let finish: () => void = () => {};
    const write = tracker.track(() => new Promise<string>((resolve) => (finish = () => resolve('done'))));
    now += 60_000;
    expect(tracker.busy).toBe(true);
    finish();
    await expect(write).resolves.toBe('done');
    expect(tracker.busy).toBe(true);
    now += CHANGES_QUIET_MS - 1;
    expect(tracker.busy).toBe(true);
    now += 1;
    expect(tracker.busy).toBe(false);
  });

  it('counts a failed write as ended too', async () => {
    let now = 0;
    const tracker = new ChangeTracker(() => now);
    await expect(tracker.track(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    now = CHANGES_QUIET_MS;
    expect(tracker.busy).toBe(false);
  });

  it('uses the wall clock by default', () => {
    expect(new ChangeTracker().busy).toBe(false);
  });
});

describe('trackChanges', () => {
  it('counts report creates, updates and deletes, and nothing else', async () => {
    const seen: string[] = [];
    const handler = (name: string) => async (input: unknown) => {
      seen.push(`${name} ${JSON.stringify(input)}`);
      return name;
    };
    const handlers = Object.fromEntries(
      ['reports:create', 'reports:update', 'reports:delete', 'reports:list'].map((name) => [
        name,
        handler(name),
      ]),
    ) as unknown as ContractHandlers;
    let now = 0;
    const tracker = new ChangeTracker(() => now);
    const tracked = trackChanges(handlers, tracker);
    for (const name of ['reports:create', 'reports:update', 'reports:delete'] as const) {
      now += CHANGES_QUIET_MS;
      expect(tracker.busy).toBe(false);
      await expect((tracked[name] as (input: unknown) => Promise<unknown>)({ id: '1' })).resolves.toBe(name);
      expect(tracker.busy, name).toBe(true);
    }
    now += CHANGES_QUIET_MS;
    await (tracked['reports:list'] as (input: unknown) => Promise<unknown>)({});
    expect(tracker.busy).toBe(false);
    expect(seen).toEqual([
      'reports:create {"id":"1"}',
      'reports:update {"id":"1"}',
      'reports:delete {"id":"1"}',
      'reports:list {}',
    ]);
    // The original table is left as it was.
    expect(handlers['reports:create']).not.toBe(tracked['reports:create']);
  });
});

describe('coreWorkActivity', () => {
  it('names what runs, and cancels the sync and the export', () => {
    const cancelled: string[] = [];
    const sync = { busy: false, cancel: () => (cancelled.push('sync'), true) };
    const exports = { busy: false, cancel: () => cancelled.push('export') };
    const changes = new ChangeTracker(() => 0);
    const work = coreWorkActivity({ sync, exports, changes });
    expect(work.running()).toEqual([]);
    sync.busy = true;
    exports.busy = true;
    void changes.track(() => new Promise(() => {}));
    expect(work.running()).toEqual(['sync', 'export', 'changes']);
    sync.busy = false;
    expect(work.running()).toEqual(['export', 'changes']);
    work.cancel();
    expect(cancelled).toEqual(['sync', 'export']);
  });
});
