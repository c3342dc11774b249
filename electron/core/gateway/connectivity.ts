/**
 * Connectivity as the gateway sees it: online until a read fails with a network error or a
 * time-out, then offline until a light probe (GET /account) succeeds. Offline is a normal
 * state: reads are answered from the cache, and the renderer shows a banner with the age.
 */
import type { ConnectivityState } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import type { EventHub } from '../events';

export class Connectivity {
  private state: ConnectivityState;
  private probeTimer: ReturnType<typeof setInterval> | null = null;
  private probing: Promise<void> | null = null;
  /** Aborted on close, so a probe of a hanging service does not keep the process alive. */
  private readonly closing = new AbortController();

  constructor(
    private readonly events: EventHub,
    private readonly now: () => Date,
    /** Resolves when the service answered; rejects (or throws) when it did not. */
    private readonly probe: (signal: AbortSignal) => Promise<void>,
    private readonly probeIntervalMs: number,
  ) {
    this.state = { online: true, since: now().toISOString(), lastError: null };
  }

  get current(): ConnectivityState {
    return this.state;
  }

  get online(): boolean {
    return this.state.online;
  }

  markOnline(): void {
    if (this.state.online) return;
    this.set({ online: true, since: this.now().toISOString(), lastError: null });
    this.stopProbing();
  }

  markOffline(error: AppError): void {
    if (!this.state.online) return;
    this.set({ online: false, since: this.now().toISOString(), lastError: error });
    this.startProbing();
  }

  /** Back to "online, unknown" — used when the active profile changes. */
  reset(): void {
    this.stopProbing();
    if (!this.state.online) this.set({ online: true, since: this.now().toISOString(), lastError: null });
  }

  /** Probes now (the user's "Try again"); one probe at a time. */
  async check(): Promise<ConnectivityState> {
    if (this.closing.signal.aborted) return this.state;
    this.probing ??= this.probe(this.closing.signal)
      .then(() => this.markOnline())
      .catch(() => undefined)
      .finally(() => {
        this.probing = null;
      });
    await this.probing;
    return this.state;
  }

  close(): void {
    this.stopProbing();
    this.closing.abort();
  }

  private set(next: ConnectivityState): void {
    this.state = next;
    this.events.emit('connectivity:changed', next);
  }

  private startProbing(): void {
    if (this.probeTimer || this.probeIntervalMs <= 0) return;
    this.probeTimer = setInterval(() => void this.check(), this.probeIntervalMs);
    // A pending probe must not keep a CLI or a test process alive.
    this.probeTimer.unref?.();
  }

  private stopProbing(): void {
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
  }
}
