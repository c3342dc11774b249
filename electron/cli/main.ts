/**
 * `report-desk` entry point: wires the process to runCli and nothing more.
 * Run with `npm run -s cli -- <args>` (tsx) or, once built, `report-desk <args>`.
 */
import { runCli } from './runCli';

// A reader that stops early (`report-desk reports list | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  stdinIsTTY: process.stdin.isTTY === true,
  env: process.env,
  // No fetch: the session takes Node's, or one through the proxies the environment names (./proxy).
});
