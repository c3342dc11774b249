/**
 * One `report-desk` run: parse, run the command (one core per run, see ./session, so the CLI
 * shares the desktop app's profiles, keychain entries and offline cache), and turn any failure
 * into one sentence on stderr (plus field lines for rejected input) and an exit code.
 */
import { toAppError } from '../../shared/errors';
import { nativeModuleFailure } from '../core/nativeModules';
import { parseArgs, usageText, UsageError } from './args';
import type { CliIo } from './context';
import { cliErrorMessage } from './errorWords';
import { EXIT_CODES, exitCodeFor } from './exitCodes';
import { errorText } from './format';
import { GRAMMAR, usageHint } from './help';
import { CliSession } from './session';

export type { CliIo } from './context';

/** Runs one CLI invocation and answers its exit code. Never throws, never prints a stack. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let session: CliSession | undefined;
  try {
    const parsed = parseArgs(argv, GRAMMAR);
    if (parsed.help) {
      io.stdout.write(usageText(GRAMMAR, parsed.topic));
      return EXIT_CODES.ok;
    }
    const { command, positionals, options } = parsed;
    const opened = new CliSession(io, options);
    session = opened;
    await command.run({
      io,
      positionals,
      options,
      json: options.json === true,
      open: () => opened.open(),
      connect: () => opened.connect(),
    });
    return EXIT_CODES.ok;
  } catch (thrown) {
    if (thrown instanceof UsageError) {
      io.stderr.write(`${thrown.message} ${usageHint(thrown.topic)}\n`);
      return EXIT_CODES.usage;
    }
    const wrongBuild = nativeModuleFailure(thrown, 'node');
    if (wrongBuild) {
      io.stderr.write(errorText(wrongBuild));
      return exitCodeFor('internal');
    }
    const error = toAppError(thrown);
    io.stderr.write(
      errorText({ ...error, message: cliErrorMessage(error, { profileName: session?.profileName }) }),
    );
    return exitCodeFor(error.kind);
  } finally {
    await session?.close().catch(() => {
      // Everything was already written (SQLite commits per statement); a failed close changes nothing.
    });
  }
}
