/**
 * Pages written in batches (fullSync.ts): the pages a walk hands over while it is busy (several
 * requests in flight arrive together) are written in one transaction as soon as it waits
 * again — fewer commits, and each B-tree page written once per batch instead of once per page.
 * A batch is never more than `max` pages; a failed write stops the run through `onFailure`.
 */
export class PageBatch<T> {
  private readonly pending: T[] = [];
  private timer: ReturnType<typeof setImmediate> | null = null;
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly write: (items: T[]) => void,
    private readonly max: number,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /** The failure of a write done between pages, once there was one. */
  get failed(): { error: unknown } | null {
    return this.failure;
  }

  /** Queues an item; `now` (or a full batch) writes at once, else when the walk next waits. */
  add(item: T, now = false): void {
    if (this.failure) throw this.failure.error;
    this.pending.push(item);
    if (now || this.pending.length >= this.max) this.flush();
    else this.timer ??= setImmediate(() => this.flushBetweenPages());
  }

  /**
   * Writes what is queued now (a throw is the caller's). A write already scheduled stays: it
   * finds nothing queued, or what was added since, as a new one would.
   */
  flush(): void {
    if (this.pending.length === 0) return;
    this.write(this.pending.splice(0));
  }

  private flushBetweenPages(): void {
    this.timer = null;
    try {
      this.flush();
    } catch (error) {
      this.failure ??= { error };
      this.onFailure(error);
    }
  }
}
