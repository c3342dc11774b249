/**
 * The renderer's only door to the core: `window.reportDesk` (the preload in Electron, the
 * preview bridge in a browser). `call` unwraps the Result so TanStack Query sees a thrown
 * CallError that still carries the AppError's kind, code, values and field errors; the screens
 * word it in the user's language when they show it (errorWords.ts).
 */
import type {
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  EventPayloads,
  ReportDeskBridge,
} from '../../../shared/contract';
import { isAppError, type AppError, type ErrorKind } from '../../../shared/errors';

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

/**
 * An error the renderer makes itself, said by its code's sentence in the catalogue. (Not with
 * shared/errors' appError: that carries every English sentence, which the renderer never shows.)
 */
export function localError(kind: ErrorKind, code: AppError['code'] = kind): AppError {
  return { kind, code, message: code };
}

const MISSING_BRIDGE = localError('internal', 'ipc.core_unreachable');

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
    throw thrown instanceof CallError ? thrown : new CallError(errorOf(thrown));
  }
  if (result.ok) return result.value;
  throw new CallError(result.error);
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
  if (isAppError(thrown)) return thrown;
  return localError('internal');
}
