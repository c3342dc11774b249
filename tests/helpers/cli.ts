/** Running the CLI in tests: in this process with captured streams, or as a real process. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCli, type CliIo } from '../../electron/cli/runCli';

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

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the real CLI in its own process (from source, through tsx), feeding `stdin`. */
export function spawnCliCaptured(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  child.stdin.end(stdin);
  return finished(child);
}

/** What a child process printed, and its exit code (-1 when a signal ended it), once it is over. */
export function finished(child: ChildProcessWithoutNullStreams): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
