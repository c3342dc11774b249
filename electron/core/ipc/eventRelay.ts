/**
 * Forwards core events to the window's page. State events (connectivity, sync progress,
 * profiles) are only useful to a page that listens right now: the page reads the current state
 * itself when it starts. Requests to the page (a deep link's `app:navigate`, a menu's
 * `app:command`) are held while nothing listens — the window may still be loading, or not exist
 * yet — and delivered as soon as the page subscribes.
 */
import type { EventName, EventPayloads } from '../../../shared/contract';
import { isEventName } from '../../../shared/channels';
import { EVENT_IPC_CHANNEL } from './channels';

/** The parts of Electron's WebContents the relay uses. */
export interface EventTargetLike {
  send(channel: string, ...args: unknown[]): void;
}

const HELD_EVENTS: ReadonlySet<EventName> = new Set<EventName>(['app:navigate', 'app:command']);
/** Enough for a burst of menu shortcuts during start-up; older ones are stale by then. */
const MAX_HELD = 10;

interface HeldEvent {
  event: EventName;
  payload: unknown;
}

export class RendererEventRelay {
  private target: EventTargetLike | null = null;
  private readonly listening = new Set<EventName>();
  private held: HeldEvent[] = [];

  /** A new window (or none, once it closed): its page has not subscribed to anything yet. */
  attach(target: EventTargetLike | null): void {
    this.target = target;
    this.listening.clear();
  }

  /** The window loaded a new document: the old page's listeners are gone with it. */
  pageChanged(): void {
    this.listening.clear();
  }

  /** Called with what the preload reports; both values come from the page, so both are checked. */
  setListening(event: unknown, listening: unknown): void {
    if (!isEventName(event) || typeof listening !== 'boolean') return;
    if (!listening) {
      this.listening.delete(event);
      return;
    }
    this.listening.add(event);
    if (!this.target) return;
    const ready = this.held.filter((h) => h.event === event);
    this.held = this.held.filter((h) => h.event !== event);
    for (const h of ready) this.send(h.event, h.payload);
  }

  deliver<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    if (this.target && this.listening.has(event)) {
      this.send(event, payload);
      return;
    }
    if (!HELD_EVENTS.has(event)) return;
    // Only the latest navigation matters: the page can show one place.
    if (event === 'app:navigate') this.held = this.held.filter((h) => h.event !== 'app:navigate');
    this.held.push({ event, payload });
    if (this.held.length > MAX_HELD) this.held.splice(0, this.held.length - MAX_HELD);
  }

  private send(event: EventName, payload: unknown): void {
    try {
      this.target?.send(EVENT_IPC_CHANNEL, event, payload);
    } catch {
      // The window was destroyed between the check and the send; the event has no audience.
    }
  }
}
