/** Fakes for the IPC tests: contract handlers that record their calls, and an ipcMain made of a Map. */
import { CHANNEL_NAMES, type Channel, type ContractHandlers } from '../../../shared/contract';
import type { IpcInvokeEventLike, IpcMainLike } from '../../../electron/core/ipc/bindContract';

export interface RecordingHandlers {
  handlers: ContractHandlers;
  calls: { channel: Channel; input: unknown }[];
  /** Replaces what one channel does. */
  set(channel: Channel, impl: (input: unknown) => Promise<unknown>): void;
}

/** Every channel answers `{ echoed: channel, input }` unless replaced with set(). */
export function recordingHandlers(): RecordingHandlers {
  const calls: { channel: Channel; input: unknown }[] = [];
  const impls = new Map<Channel, (input: unknown) => Promise<unknown>>();
  const handlers = Object.fromEntries(
    CHANNEL_NAMES.map((channel) => [
      channel,
      async (input: unknown) => {
        calls.push({ channel, input });
        const impl = impls.get(channel);
        return impl ? impl(input) : { echoed: channel, input };
      },
    ]),
  ) as unknown as ContractHandlers;
  return { handlers, calls, set: (channel, impl) => impls.set(channel, impl) };
}

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();

  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void {
    // Electron throws on a second handler for one channel; the fake does the same.
    if (this.handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  /** What ipcRenderer.invoke would resolve to. */
  async invoke(channel: string, event: IpcInvokeEventLike, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, ...args);
  }
}

export const appEvent = (url = 'app://reportdesk/index.html', senderId = 1): IpcInvokeEventLike => ({
  senderFrame: { url, parent: null },
  sender: { id: senderId },
});
