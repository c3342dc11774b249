// Linted as electron/core/<file>: the core must not import the CLI.
import { runCli } from '../cli/commands';

export const run = runCli;
