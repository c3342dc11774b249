/**
 * The single entry point from any front end's transport (Electron IPC, the browser-preview
 * bridge) into the contract's handlers. Everything that crosses it is untrusted: the channel
 * name and the input are validated against shared/contract.ts before a handler sees them, and
 * every outcome comes back as a Result value, because Electron keeps only the message of a
 * thrown Error and a stack trace must never reach a person.
 */
import { isChannel, parseChannelInput, type ContractHandlers } from '../../../shared/contract';
import { appError, AppFailure, fail, isAppError, ok, type Result } from '../../../shared/errors';
import { silentLogger, type Logger } from '../log';
import { unknownChannelError } from './channels';

export async function dispatch(
  handlers: ContractHandlers,
  channel: unknown,
  input: unknown,
  logger: Logger = silentLogger,
): Promise<Result<unknown>> {
  if (!isChannel(channel)) {
    logger.warn('Refused a request for an unknown channel', { channel: describe(channel) });
    return fail(unknownChannelError(channel));
  }
  const parsed = parseChannelInput(channel, input);
  if (!parsed.ok) {
    logger.info('Refused invalid input', { channel, fields: Object.keys(parsed.error.fieldErrors ?? {}) });
    return parsed;
  }
  const handler = handlers[channel] as ((input: unknown) => Promise<unknown>) | undefined;
  if (typeof handler !== 'function') {
    logger.error('No handler is registered for a contract channel', { channel });
    return fail(appError('internal'));
  }
  try {
    return ok(await handler(parsed.value));
  } catch (thrown) {
    if (thrown instanceof AppFailure) return fail(thrown.error);
    if (isAppError(thrown)) return fail(thrown);
    // An unexpected failure: the details go to the log (secrets are redacted there), the
    // caller gets the generic sentence only.
    logger.error('A request failed unexpectedly', {
      channel,
      error: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : describe(thrown),
      stack: thrown instanceof Error ? thrown.stack : undefined,
    });
    return fail(appError('internal'));
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, 80);
  return value === null ? 'null' : typeof value;
}
