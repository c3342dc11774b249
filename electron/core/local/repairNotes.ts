/**
 * The notices of repairs this core made or found (issue 30), on their way to every front end:
 * recorded in local.sqlite (so the app shows a repair a CLI command made too), remembered as
 * made here (the CLI says each once, on stderr, in the run that made it), and told to whoever
 * listens (the gateway's repairs service emits `repairs:changed`). A notice that cannot be
 * recorded (a read-only or full folder) is still told, and kept in memory for this run.
 */
import { failureCode } from '../errorCode';
import { randomUUID } from 'node:crypto';
import type { RepairNotice } from '../../../shared/contract';
import type { Logger } from '../log';
import type { LocalStore } from './localStore';
import type { NewNotice } from './notices';

export class RepairNotes {
  /** The notices this process made, in order. */
  readonly madeHere: RepairNotice[];
  /** Notices that could not be recorded: shown for this run only. */
  private readonly unrecorded: RepairNotice[] = [];
  private readonly listeners = new Set<(notice: RepairNotice) => void>();

  constructor(
    private readonly local: LocalStore,
    private readonly logger: Logger,
  ) {
    this.madeHere = [...local.repairsMadeHere];
  }

  note(notice: NewNotice): RepairNotice {
    let stored: RepairNotice;
    try {
      stored = this.local.transaction(() => this.local.notices.add(notice));
    } catch (error) {
      this.logger.warn('A repair notice could not be recorded; it is shown for this run only.', {
        code: failureCode(error),
      });
      stored = { ...notice, id: randomUUID(), at: new Date().toISOString() } as RepairNotice;
      this.unrecorded.push(stored);
    }
    this.madeHere.push(stored);
    for (const listener of this.listeners) {
      try {
        listener(stored);
      } catch {
        // A listener must not stop a repair from being told to the others.
      }
    }
    return stored;
  }

  /** The notices not yet acknowledged, oldest first. */
  list(): RepairNotice[] {
    return [...this.local.read(() => this.local.notices.list()), ...this.unrecorded];
  }

  /** Acknowledges a notice; answers whether it was there. */
  dismiss(id: string): boolean {
    const index = this.unrecorded.findIndex((notice) => notice.id === id);
    if (index >= 0) {
      this.unrecorded.splice(index, 1);
      return true;
    }
    return this.local.transaction(() => this.local.notices.dismiss(id));
  }

  onNote(listener: (notice: RepairNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
