/**
 * The IPC wire names and whitelists shared by the main process and the preload. Zod-free on
 * purpose: the sandboxed preload bundles this file, and pulling the contract's schemas (and zod)
 * into every page load would only add weight. The lists are checked against the contract at
 * compile time below and by tests/unit/ipc.
 */
import type { Channel, EventName } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';

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

export const BRIDGE_CHANNELS = [
  'profiles:list',
  'profiles:add',
  'profiles:update',
  'profiles:remove',
  'profiles:activate',
  'profiles:setKey',
  'profiles:testConnection',
  'profiles:startDemo',
  'reports:list',
  'reports:get',
  'reports:create',
  'reports:update',
  'reports:delete',
  'account:get',
  'cache:status',
  'cache:sync',
  'cache:cancelSync',
  'cache:clear',
  'cache:projects',
  'connectivity:status',
  'connectivity:check',
  'shell:openExternal',
] as const satisfies readonly Channel[];

export const BRIDGE_EVENTS = [
  'connectivity:changed',
  'sync:progress',
  'profiles:changed',
  'app:navigate',
  'app:command',
] as const satisfies readonly EventName[];

// Compile-time proof that no contract channel or event is missing from the whitelists.
type Missing<All, Listed> = Exclude<All, Listed>;
const _everyChannelListed: [Missing<Channel, (typeof BRIDGE_CHANNELS)[number]>] extends [never]
  ? true
  : never = true;
const _everyEventListed: [Missing<EventName, (typeof BRIDGE_EVENTS)[number]>] extends [never] ? true : never =
  true;
void _everyChannelListed;
void _everyEventListed;

export function isBridgeChannel(name: unknown): name is Channel {
  return typeof name === 'string' && (BRIDGE_CHANNELS as readonly string[]).includes(name);
}

export function isBridgeEvent(name: unknown): name is EventName {
  return typeof name === 'string' && (BRIDGE_EVENTS as readonly string[]).includes(name);
}

/** The answer to a request for a channel the contract does not have. */
export function unknownChannelError(channel: unknown): AppError {
  const shown = typeof channel === 'string' ? `"${channel.slice(0, 80)}"` : 'without a name';
  return {
    kind: 'invalid_input',
    message: `Unknown request ${shown}. This version of ReportDesk does not support it; update or restart the app.`,
  };
}
