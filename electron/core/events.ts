/**
 * The core's event hub: the gateway emits connectivity, sync-progress and profile events;
 * the Electron glue forwards them to the window, the preview bridge to the browser over
 * server-sent events, and tests subscribe directly.
 */
import type { EventName, EventPayloads } from '../../shared/contract';

export type EventListener = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

export class EventHub {
  private readonly listeners = new Set<EventListener>();

  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    for (const listener of this.listeners) {
      try {
        listener(event, payload);
      } catch {
        // One broken listener (a closed window) must not stop the others.
      }
    }
  }
}
