/** Fake contract handlers for the IPC, bridge and preview tests: one kind, recording every call. */
import { CHANNEL_NAMES, type Channel, type ContractHandlers } from '../../shared/contract';

export interface RecordingHandlers {
  handlers: ContractHandlers;
  calls: { channel: Channel; input: unknown }[];
  /** Replaces what one channel does. */
  set(channel: Channel, impl: (input: unknown) => Promise<unknown>): void;
}

/**
 * Every channel answers `{ echoed: channel, input }` (or, with `whenUnset: 'throw'`, fails as
 * not implemented) unless replaced with set() or by assigning to `handlers[channel]`.
 */
export function recordingHandlers(options: { whenUnset?: 'echo' | 'throw' } = {}): RecordingHandlers {
  const calls: { channel: Channel; input: unknown }[] = [];
  const impls = new Map<Channel, (input: unknown) => Promise<unknown>>();
  const handlers = Object.fromEntries(
    CHANNEL_NAMES.map((channel) => [
      channel,
      async (input: unknown) => {
        calls.push({ channel, input });
        const impl = impls.get(channel);
        if (impl) return impl(input);
        if (options.whenUnset === 'throw') throw new Error(`fake handler for ${channel} is not implemented`);
        return { echoed: channel, input };
      },
    ]),
  ) as unknown as ContractHandlers;
  return { handlers, calls, set: (channel, impl) => impls.set(channel, impl) };
}

/** Handlers that fail until a test gives a channel its answer (the preview's bridge tests). */
export function unimplementedHandlers(): ContractHandlers {
  return recordingHandlers({ whenUnset: 'throw' }).handlers;
}
