/**
 * The IPC wire names shared by the main process and the preload. Zod-free on purpose: the
 * sandboxed preload bundles this file (the channel and event whitelists are shared/channels.ts).
 */
import { appError, type AppError } from '../../../shared/errors';

/** The ipc channel of a contract channel is this prefix + its name ("reportdesk:reports:list"). */
export const INVOKE_CHANNEL_PREFIX = 'reportdesk:';
/** Main → renderer events travel on this one ipc channel as (eventName, payload). */
export const EVENT_IPC_CHANNEL = 'reportdesk:event';
/**
 * Renderer → main as (eventName, listening: boolean): whether the page has a listener for an
 * event. Main holds navigation and menu events while it has none, so a deep link that arrives
 * while the page is still loading is delivered once the page listens instead of being lost.
 */
export const SUBSCRIPTION_IPC_CHANNEL = 'reportdesk:subscription';

/** The answer to a request for a channel the contract does not have. */
export function unknownChannelError(channel: unknown): AppError {
  return appError('ipc.unknown_channel', {
    channel: typeof channel === 'string' ? channel.slice(0, 80) : '',
  });
}
