/**
 * Binds every contract channel to Electron's ipcMain (typed here structurally, so this file
 * and its tests never load Electron). Each request is checked for its sender first, as GitHub
 * Desktop's isTrustedIPCSender does: only ReportDesk's own window may reach the core.
 */
import { CHANNEL_NAMES, type ContractHandlers } from '../../../shared/contract';
import { appError, fail } from '../../../shared/errors';
import { silentLogger, type Logger } from '../log';
import { INVOKE_CHANNEL_PREFIX } from './channels';
import { dispatch } from './dispatch';

export { INVOKE_CHANNEL_PREFIX } from './channels';

/** The parts of Electron's IpcMainInvokeEvent / IpcMainEvent this code reads. */
export interface IpcInvokeEventLike {
  senderFrame: { url: string; parent?: unknown } | null;
  sender: { id: number };
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface BindContractOptions {
  isTrustedSender: (event: IpcInvokeEventLike) => boolean;
  logger?: Logger;
}

/** Registers one ipc handler per contract channel; the returned function removes them all. */
export function bindContract(
  ipc: IpcMainLike,
  handlers: ContractHandlers,
  options: BindContractOptions,
): () => void {
  const logger = options.logger ?? silentLogger;
  const bound: string[] = [];
  for (const channel of CHANNEL_NAMES) {
    const ipcChannel = INVOKE_CHANNEL_PREFIX + channel;
    ipc.handle(ipcChannel, (event, input) => {
      if (!senderIsTrusted(options.isTrustedSender, event)) {
        logger.warn('Refused a request from a foreign sender', {
          channel,
          senderId: event?.sender?.id,
          frameUrl: event?.senderFrame?.url?.slice(0, 200) ?? null,
        });
        return fail(appError('ipc.foreign_sender'));
      }
      return dispatch(handlers, channel, input, logger);
    });
    bound.push(ipcChannel);
  }
  return () => {
    for (const ipcChannel of bound.splice(0)) ipc.removeHandler(ipcChannel);
  };
}

function senderIsTrusted(check: (event: IpcInvokeEventLike) => boolean, event: IpcInvokeEventLike): boolean {
  try {
    return check(event) === true;
  } catch {
    // A frame that is already gone can throw on access; it is not a trusted sender.
    return false;
  }
}
