/**
 * What every CLI command gets to work with, and the small helpers the command files share.
 * Everything the outside world provides (streams, environment, fetch, keychain, clock) comes
 * in through `CliIo`, so tests run `runCli` in-process exactly as main.ts does.
 */
import type { z } from 'zod';
import { AppFailure, englishOnlyError, fieldErrorsFrom, issueEnglish } from '../../shared/errors';
import type { KeyStore } from '../core/keys/keyStore';
import type { CoreServices } from '../core/services';
import type { CommandSpec, OptionValues } from './args';
import type { Connected } from './connection';

export const PROGRAM = 'report-desk';

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Read only by --password-stdin and `profiles add` (the API key). */
  stdin: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
  /** True when stdin is a terminal: a key typed there would show on screen, so it is refused. */
  stdinIsTTY?: boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** Node's fetch unless a test injects another. */
  fetch?: typeof globalThis.fetch;
  /** The OS keychain (keytar) unless a test injects another. */
  keyStore?: KeyStore;
  /** The clock for cache ages; tests inject one. */
  now?: () => Date;
}

export interface CommandContext {
  io: CliIo;
  positionals: string[];
  options: OptionValues;
  json: boolean;
  /** The data dir's profiles and cache, without a connection; opened on first call. */
  open(): Promise<CoreServices>;
  /**
   * The gateway bound to this run's connection (REPORT_DESK_API_KEY or a profile); opened on
   * first call, only after the command's input is valid.
   */
  connect(): Promise<Connected>;
}

export interface CliCommand extends CommandSpec {
  run(context: CommandContext): Promise<void>;
}

/** More than a password or a key could ever be; stops a runaway pipe early. */
const MAX_STDIN_BYTES = 16 * 1024;

export function text(options: OptionValues, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

/** Parses with a shared schema; a failure names the CLI option, not the API field. */
export function validated<S extends z.ZodType>(
  schema: S,
  input: unknown,
  optionFor: Record<string, string> = {},
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsFrom(parsed.error.issues, (path) => {
    const field = String(path[0] ?? 'input');
    return optionFor[field] ?? field;
  });
  const first = parsed.error.issues[0]?.message;
  const message = first === undefined ? 'The input is not valid.' : issueEnglish(first);
  throw new AppFailure(englishOnlyError('invalid_input', message, { fieldErrors }));
}

export function withoutUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Everything on stdin as text; `what` names it in the too-long message ("the password"). */
export async function readStdin(stdin: CliIo['stdin'], what: string): Promise<string> {
  const decoder = new TextDecoder();
  let received = '';
  for await (const chunk of stdin) {
    received += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (received.length > MAX_STDIN_BYTES) {
      throw new AppFailure(
        englishOnlyError('invalid_input', `The ${what} on stdin is far too long. Pipe in only the ${what}.`),
      );
    }
  }
  return received + decoder.decode();
}
