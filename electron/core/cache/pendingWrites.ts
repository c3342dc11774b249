/**
 * The cache's write-throughs that were answered already and are written right after
 * (ReportCache.putReportsSoon) or once a walk over many pages pauses (putReportsLater). The
 * queue only decides when; the cache writes each batch (`write`) and writes everything pending
 * before any other use of its file, so whatever a process reads from the cache after an answer
 * includes that answer.
 */
import type { Report } from '../../../shared/report';

/** How long a walk must pause before its deferred pages are written (putReportsLater). */
const DEFERRED_WRITE_PAUSE_MS = 200;
/** Deferred pages written per step: about 90 ms of work, so the process answers between steps. */
const DEFERRED_PAGES_PER_STEP = 8;

export interface PendingPage {
  scope: string;
  reports: Report[];
  fetchedAt: string;
}

export class PendingWrites {
  private readonly pages: PendingPage[] = [];
  private flushScheduled = false;
  private flushing = false;
  /** The last step of the deferred writes scheduled (clearing one that ran does nothing). */
  private deferredStep: NodeJS.Timeout | undefined;

  constructor(private readonly write: (batch: PendingPage[]) => void) {}

  /** Pages fetched and not yet written. */
  get count(): number {
    return this.pages.length;
  }

  /** Written right after the current task. */
  soon(page: PendingPage): void {
    this.pages.push(page);
    // One flush per task, however many pages it queues.
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  /** Written once the walk has paused for DEFERRED_WRITE_PAUSE_MS, a few per step. */
  later(page: PendingPage): void {
    this.pages.push(page);
    this.scheduleDeferredStep(DEFERRED_WRITE_PAUSE_MS);
  }

  /** Writes the pages queued (the first `limit`), in order; a write in progress is not re-entered. */
  flush(limit = Infinity): void {
    if (this.flushing) return;
    if (this.pages.length === 0) return;
    this.flushing = true;
    try {
      this.write(this.pages.splice(0, limit));
    } finally {
      this.flushing = false;
    }
  }

  private scheduleDeferredStep(delayMs: number): void {
    clearTimeout(this.deferredStep);
    this.deferredStep = setTimeout(() => {
      this.flush(DEFERRED_PAGES_PER_STEP);
      // Steps follow one another only while pages are left.
      if (this.pages.length > 0) this.scheduleDeferredStep(0);
    }, delayMs);
    // Pending pages never keep a process alive: the cache's close() writes them.
    this.deferredStep.unref();
  }
}
