/** Fakes for the IPC tests: an ipcMain made of a Map. Contract handlers: tests/helpers/fakeHandlers. */
import type { IpcInvokeEventLike, IpcMainLike } from '../../../electron/core/ipc/bindContract';

/**
 * Electron's IPC serialization: "Arguments will be serialized with the Structured Clone
 * Algorithm … Sending Functions, Promises, Symbols, WeakMaps, or WeakSets will throw an
 * exception" (https://www.electronjs.org/docs/latest/api/ipc-renderer#ipcrendererinvokechannel-args,
 * and the same for ipcMain.handle replies and webContents.send), with Electron's message.
 */
export function crossProcess<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    throw new Error('An object could not be cloned.');
  }
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

  /**
   * What ipcRenderer.invoke would resolve to, crossing the process boundary as Electron's does
   * (electron.d.ts, ipcRenderer.invoke / ipcMain.handle): the arguments and the reply are
   * serialized with the Structured Clone Algorithm, so prototype chains are dropped (a class
   * instance arrives as a plain object) and a Function, Promise or Symbol throws instead of
   * arriving; a handler's thrown error reaches the caller as its message only.
   */
  async invoke(channel: string, event: IpcInvokeEventLike, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const sent = args.map((arg) => crossProcess(arg));
    const outcome = await Promise.resolve()
      .then(() => handler(event, ...sent))
      .then(
        (reply: unknown) => ({ reply }),
        (thrown: unknown) => ({ thrown }),
      );
    // Only the text crosses: the renderer never sees the error object (nor its cause).
    if ('thrown' in outcome)
      throw new Error(`Error invoking remote method '${channel}': ${String(outcome.thrown)}`);
    return crossProcess(outcome.reply);
  }
}

export const appEvent = (url = 'app://reportdesk/index.html', senderId = 1): IpcInvokeEventLike => ({
  senderFrame: { url, parent: null },
  sender: { id: senderId },
});
