/**
 * The work a restart into an update waits for, as the core sees it: a full sync and an export
 * run in the core; a bulk change runs in the window, as a stream of `reports:*` writes, two at a
 * time, each sent as soon as one ends. The core counts the writes in flight and calls changes
 * "running" until none has been for CHANGES_QUIET_MS, which spans the gap between two writes.
 */
import type { ContractHandlers, RunningWork } from '../../../shared/contract';
import type { WorkActivity } from './updatesService';

export const CHANGES_QUIET_MS = 2_000;

const WRITES = ['reports:create', 'reports:update', 'reports:delete'] as const;

export class ChangeTracker {
  private inFlight = 0;
  private lastEnded = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  get busy(): boolean {
    return this.inFlight > 0 || this.now() - this.lastEnded < CHANGES_QUIET_MS;
  }

  async track<T>(run: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await run();
    } finally {
      this.inFlight--;
      this.lastEnded = this.now();
    }
  }
}

/** The handler table with every report write counted by `tracker`. */
export function trackChanges(handlers: ContractHandlers, tracker: ChangeTracker): ContractHandlers {
  const tracked = { ...handlers };
  for (const name of WRITES) {
    const handler = handlers[name] as (input: unknown) => Promise<unknown>;
    (tracked as Record<string, unknown>)[name] = (input: unknown) => tracker.track(() => handler(input));
  }
  return tracked;
}

export function coreWorkActivity(parts: {
  sync: { readonly busy: boolean; cancel(): boolean };
  exports: { readonly busy: boolean; cancel(): unknown };
  changes: ChangeTracker;
}): WorkActivity {
  return {
    running() {
      const running: RunningWork[] = [];
      if (parts.sync.busy) running.push('sync');
      if (parts.exports.busy) running.push('export');
      if (parts.changes.busy) running.push('changes');
      return running;
    },
    cancel() {
      parts.sync.cancel();
      parts.exports.cancel();
    },
  };
}
