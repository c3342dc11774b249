/** Runs the CLI in this process with captured streams, as main.ts would with process.*. */
import { runCli, type CliIo } from '../../electron/cli/commands';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliCaptured(
  args: string[],
  io: Omit<CliIo, 'stdout' | 'stderr' | 'stdin'> & { stdin?: string },
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    ...io,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: [io.stdin ?? ''],
  });
  return { code, stdout, stderr };
}
