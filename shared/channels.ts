/**
 * The names of every IPC channel and event, without a schema library: the sandboxed preload
 * whitelists them, and it must not bundle zod for a list of strings. The contract
 * (./contract.ts) gives each name its schema and types, and the compiler holds the two in step.
 */

export const CHANNEL_NAMES = [
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
  'reports:export',
  'reports:cancelExport',
  'export:save',
  'account:get',
  'cache:status',
  'cache:sync',
  'cache:cancelSync',
  'cache:clear',
  'cache:projects',
  'cache:overview',
  'changes:list',
  'changes:summary',
  'changes:marks',
  'changes:markSeen',
  'offline:get',
  'offline:set',
  // Issue 27: history from the offline copy.
  'history:periods',
  'history:timeline',
  'history:compare',
  'history:urls',
  'history:export',
  'connectivity:status',
  'connectivity:check',
  'shell:openExternal',
  'links:open',
  'updates:status',
  'updates:check',
  'updates:setPreferences',
  'updates:restart',
  'updates:cancelRestart',
  // Issue 22: what the first screen needs, in one round trip.
  'app:firstScreen',
  // Issue 30: the machine's own faults, repaired and told.
  'repairs:status',
  'repairs:dismiss',
  'repairs:restoreKeys',
  'repairs:removeKeys',
  'profiles:startAfresh',
  // Issue 28: the language, app-wide.
  'settings:language',
  'settings:setLanguage',
] as const;
export type Channel = (typeof CHANNEL_NAMES)[number];

export const EVENT_NAMES = [
  'connectivity:changed',
  'sync:progress',
  'export:progress',
  'profiles:changed',
  'app:navigate',
  'app:command',
  'updates:changed',
  'offline:changed',
  'offline:refreshed',
  'repairs:changed',
  'language:changed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && (CHANNEL_NAMES as readonly string[]).includes(name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && (EVENT_NAMES as readonly string[]).includes(name);
}
