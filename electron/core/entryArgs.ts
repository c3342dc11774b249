/**
 * The one argument parser for the small entry points (the demo service's and the preview's
 * `run.ts`): node:util parseArgs, strict, with failures as one sentence each. The CLI has its
 * own grammar (electron/cli/args.ts) with per-command help.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { isLanguage, PSEUDO_LANGUAGES, SHIPPED_LANGUAGES, type Language } from '../../shared/i18n/languages';

/** A usage mistake: print the sentence and the usage line, exit with 2. */
export class EntryUsageError extends Error {}

type Values<O extends ParseArgsOptionsConfig> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string;
};

/** Parses `argv` (without node and the script) against `options`; no positionals allowed. */
export function parseEntryArgs<O extends ParseArgsOptionsConfig>(argv: string[], options: O): Values<O> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Values<O>;
  } catch (thrown) {
    // Node's messages go on with advice about "--" that does not apply here: keep the first sentence.
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    const first = message.split(/(?<=\.)\s/)[0].trim();
    throw new EntryUsageError(first.endsWith('.') ? first : `${first}.`);
  }
}

/** A `--lang` code: a shipped or pseudo language; null when absent. */
export function parseLanguage(text: string | undefined): Language | null {
  if (text === undefined) return null;
  if (isLanguage(text)) return text;
  throw new EntryUsageError(
    `--lang must be one of ${[...SHIPPED_LANGUAGES, ...PSEUDO_LANGUAGES].join(', ')}, not "${text}".`,
  );
}

/** A TCP port from text (0 = any free port); `fallback` when the text is missing or empty. */
export function parsePort(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new EntryUsageError(`The port must be a whole number from 0 to 65535, not "${text}".`);
  }
  return port;
}
