/**
 * The claim on a scope's sync, shared by every process on the cache file: one full sync or
 * quick refresh per scope at a time, the app's and the CLI's alike (schema version 2's
 * `sync_leases` table). `SyncLeases` is the table; `holdSyncLease` is what a run does with it:
 * claim, renew on a timer and on every page, notice a take-over, release.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { AppFailure, appError } from '../../../shared/errors';
import { ownerIsGone, ownerToken } from '../processOwner';

/**
 * How long a sync's claim lasts without renewal: the longest a killed sync blocks the next
 * when it ran on another computer sharing the folder. On this computer a claim whose process
 * is gone is taken over at once (its owner names the process: `<run id>@<owner token>`).
 */
export const DEFAULT_SYNC_LEASE_MS = 20_000;

/** A new owner for one run: unique to the run, naming this process. */
export function newLeaseOwner(): string {
  return `${randomUUID()}@${ownerToken()}`;
}

/** Whether the run that holds a claim is provably gone (killed, on this computer); an older ReportDesk's plain ids are not. */
export function leaseOwnerIsGone(owner: string): boolean {
  const at = owner.indexOf('@');
  return at >= 0 && ownerIsGone(owner.slice(at + 1));
}

export class SyncLeases {
  constructor(
    private readonly statement: (sql: string) => Database.Statement,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  /**
   * Claims the scope's sync for `owner` until `nowMs + leaseMs`, in one IMMEDIATE
   * transaction, so two processes never both win. Answers false while another owner's claim
   * has not expired and its process may still run; an expired claim (its process died or
   * stalled), or one of a process gone from this computer, is taken over.
   */
  acquire(scope: string, owner: string, nowMs: number, leaseMs: number): boolean {
    return this.transaction(() => {
      const held = this.held(scope);
      if (held && held.owner !== owner && held.expiresAt > nowMs && !leaseOwnerIsGone(held.owner))
        return false;
      this.statement(
        `INSERT INTO sync_leases (scope, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (scope) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at`,
      ).run(scope, owner, nowMs + leaseMs);
      return true;
    });
  }

  /** Extends `owner`'s claim; false when it is no longer theirs (expired and taken over, or cleared). */
  renew(scope: string, owner: string, nowMs: number, leaseMs: number): boolean {
    return (
      this.statement('UPDATE sync_leases SET expires_at = ? WHERE scope = ? AND owner = ?').run(
        nowMs + leaseMs,
        scope,
        owner,
      ).changes === 1
    );
  }

  release(scope: string, owner: string): void {
    this.statement('DELETE FROM sync_leases WHERE scope = ? AND owner = ?').run(scope, owner);
  }

  /** The scope's claim as stored (possibly expired), or null. */
  held(scope: string): { owner: string; expiresAt: number } | null {
    const row = this.statement('SELECT owner, expires_at FROM sync_leases WHERE scope = ?').get(scope) as
      { owner: string; expires_at: number } | undefined;
    return row ? { owner: row.owner, expiresAt: row.expires_at } : null;
  }
}

/** The refusal of a sync while another one of the scope runs (in this process or another). */
export function syncRunningFailure(): AppFailure {
  return new AppFailure(appError('sync.running', {}, { reason: 'sync_running' }));
}

/** Thrown inside a run whose claim was taken over; the run ends with reason `sync_taken_over`. */
export class LeaseLost extends Error {}

export interface HeldLease {
  /** Aborts when the caller's signal does, or when the claim was lost. */
  signal: AbortSignal;
  /** True once a renewal found the claim taken over. */
  readonly lost: boolean;
  /** Renews the claim now (inside a page's transaction); throws LeaseLost when it is gone. */
  claimOrStop(): void;
  /** Stops the renewal timer and gives the claim up (best effort: unreleased, it runs out). */
  release(): void;
}

/**
 * Claims the scope's lease for one run, or throws the `busy` failure (reason `sync_running`)
 * every front end words. The claim is renewed every third of `leaseMs` on a timer (50 ms at
 * least) and by `claimOrStop`; a renewal that finds it taken over aborts `signal`.
 */
export function holdSyncLease(options: {
  leases: SyncLeases;
  scope: string;
  now: () => Date;
  leaseMs: number;
  signal: AbortSignal;
}): HeldLease {
  const { leases, scope, now, leaseMs } = options;
  const owner = newLeaseOwner();
  if (!leases.acquire(scope, owner, now().getTime(), leaseMs)) {
    throw syncRunningFailure();
  }
  const stopped = new AbortController();
  let lost = false;
  // Once lost, the claim is another owner's: the renewals stop, and so does the run.
  const lose = () => {
    lost = true;
    clearInterval(renewal);
    stopped.abort();
  };
  const renew = () => {
    let kept: boolean;
    try {
      kept = leases.renew(scope, owner, now().getTime(), leaseMs);
    } catch {
      // The file is busy beyond busy_timeout: try again at the next tick or page.
      return;
    }
    if (!kept) lose();
  };
  const renewal = setInterval(renew, Math.max(50, Math.floor(leaseMs / 3)));
  renewal.unref();
  return {
    signal: AbortSignal.any([options.signal, stopped.signal]),
    get lost() {
      return lost;
    },
    claimOrStop() {
      // Once lost, a renewal is refused again (the claim is another owner's).
      if (!leases.renew(scope, owner, now().getTime(), leaseMs)) {
        // Requests still in flight stop too: nothing they bring may be written.
        lose();
        throw new LeaseLost();
      }
    },
    release() {
      clearInterval(renewal);
      try {
        leases.release(scope, owner);
      } catch {
        // Unreleased, the claim simply runs out after leaseMs.
      }
    },
  };
}

/** A failure of a run that held the lease, as it leaves the run: taken over, cancelled, or as thrown. */
export function runFailure(
  error: unknown,
  lease: HeldLease,
  cancelled: boolean,
  cancelledCode: 'sync.cancelled' | 'refresh.cancelled',
): unknown {
  if (lease.lost || error instanceof LeaseLost) {
    return new AppFailure(appError('sync.taken_over', {}, { reason: 'sync_taken_over' }));
  }
  if (cancelled) return new AppFailure(appError(cancelledCode));
  return error;
}
