/**
 * What the preload exposes as `window.reportDesk`, kept free of Electron so it is tested with a
 * fake ipcRenderer. It whitelists channel and event names (as VS Code's preload does), never
 * hands the page ipcRenderer or an IPC event object, and turns transport failures into Result
 * values so the renderer only ever deals with `{ ok, value | error }`.
 */
import type { ReportDeskBridge, EventName, EventPayloads } from '../../../shared/contract';
import { appError, type AppError, type Result } from '../../../shared/errors';
import {
  EVENT_IPC_CHANNEL,
  INVOKE_CHANNEL_PREFIX,
  SUBSCRIPTION_IPC_CHANNEL,
  unknownChannelError,
} from './channels';
import { isChannel, isEventName } from '../../../shared/channels';

/** The parts of Electron's ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  send(channel: string, ...args: unknown[]): void;
}

const MAIN_UNREACHABLE: AppError = appError('ipc.main_unreachable');

export function createBridge(ipc: IpcRendererLike): ReportDeskBridge {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let receiving = false;

  const receive = (_event: unknown, name: unknown, payload: unknown) => {
    if (!isEventName(name)) return;
    for (const listener of [...(listeners.get(name) ?? [])]) {
      try {
        (listener as (payload: unknown) => void)(payload);
      } catch (error) {
        // One failing subscriber must not starve the others; the page's console shows it.
        console.error(`ReportDesk: a listener for "${name}" failed`, error);
      }
    }
  };

  return {
    async invoke(channel, input) {
      if (!isChannel(channel)) return { ok: false, error: unknownChannelError(channel) };
      try {
        return (await ipc.invoke(INVOKE_CHANNEL_PREFIX + channel, input)) as Result<never>;
      } catch {
        return { ok: false, error: MAIN_UNREACHABLE };
      }
    },

    on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
      if (!isEventName(event) || typeof listener !== 'function') return () => {};
      if (!receiving) {
        ipc.on(EVENT_IPC_CHANNEL, receive);
        receiving = true;
      }
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const firstForEvent = set.size === 0;
      // Wrapped so subscribing the same function twice gives two independent subscriptions.
      const subscription = (payload: never) => listener(payload);
      set.add(subscription);
      if (firstForEvent) ipc.send(SUBSCRIPTION_IPC_CHANNEL, event, true);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        set.delete(subscription);
        if (set.size === 0) ipc.send(SUBSCRIPTION_IPC_CHANNEL, event, false);
      };
    },
  };
}
