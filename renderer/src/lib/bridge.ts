/**
 * The renderer's only door to the core: `window.reportDesk` (the preload in Electron, the
 * preview bridge in a browser). `call` unwraps the Result so TanStack Query sees a thrown
 * CallError that still carries the AppError's kind, message and field errors; the message in
 * the app's words (errorWords.ts).
 */
import type {
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  EventPayloads,
  ReportDeskBridge,
} from '../../../shared/contract';
import { appError, toAppError, type AppError, type ErrorKind } from '../../../shared/errors';
import { inAppWords } from './errorWords';

declare global {
  interface Window {
    reportDesk?: ReportDeskBridge;
  }
}

export class CallError extends Error {
  readonly kind: ErrorKind;
  readonly appError: AppError;
  readonly fieldErrors: Record<string, string[]> | undefined;

  constructor(error: AppError) {
    super(error.message);
    this.name = 'CallError';
    this.kind = error.kind;
    this.appError = error;
    this.fieldErrors = error.fieldErrors;
  }
}

const MISSING_BRIDGE = appError(
  'internal',
  'ReportDesk could not connect to its core. Close the window and start ReportDesk again.',
);

function bridge(): ReportDeskBridge {
  const found = window.reportDesk;
  if (!found) throw new CallError(MISSING_BRIDGE);
  return found;
}

/** Invokes a channel and returns its value, or throws a CallError carrying the AppError. */
export async function call<C extends Channel>(
  channel: C,
  input?: ChannelInput<C>,
): Promise<ChannelOutput<C>> {
  let result;
  try {
    result = await bridge().invoke(channel, input);
  } catch (thrown) {
    // A broken bridge (the preview server gone, a closed window) never leaks its stack.
    throw thrown instanceof CallError ? thrown : new CallError(toAppError(thrown));
  }
  if (result.ok) return result.value;
  throw new CallError(inAppWords(result.error));
}

/** Subscribes to a core event; a missing bridge means no events, never a crash. */
export function onEvent<E extends EventName>(
  event: E,
  listener: (payload: EventPayloads[E]) => void,
): () => void {
  const found = window.reportDesk;
  if (!found) return () => {};
  return found.on(event, listener);
}

/** Whatever was thrown, as an AppError a screen can show. */
export function errorOf(thrown: unknown): AppError {
  if (thrown instanceof CallError) return thrown.appError;
  return toAppError(thrown);
}
