/**
 * Shoulder surfing and screen recording: a password or key typed into a terminal is echoed as it
 * is typed. The CLI runs under a real pseudo-terminal (util-linux `script`), so its stdin is a
 * TTY exactly as when a person runs it, and must refuse before reading or sending anything.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { skipWhen } from '../helpers/skip';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'cli-tty-key-Pz8Lm3Vq2Xc';
const hasScript = spawnSync('script', ['--version']).status === 0;

let service: DemoService;
const dataDir = mkdtempSync(join(tmpdir(), 'report-desk-tty-'));

beforeAll(async () => {
  service = await startDemoService({ accounts: [{ apiKey: KEY, account: { id: 1, name: 'T' } }] });
});
afterAll(async () => {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The real CLI with a pseudo-terminal as stdin, stdout and stderr (all merged, as on screen). */
function runInTerminal(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; screen: string }> {
  const command = ['node', '--import', 'tsx', 'electron/cli/main.ts', ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    // -e: script exits with the command's status; -q: no "Script started" banner.
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, screen }));
  });
}

describe.skipIf(skipWhen(!hasScript, 'util-linux script is not installed'))(
  'a password or key typed where the terminal echoes it',
  () => {
    const env = () => ({
      REPORT_DESK_DATA_DIR: dataDir,
      REPORT_DESK_BASE_URL: service.baseUrl,
      REPORT_DESK_API_KEY: KEY,
    });

    it('reports create --password-stdin refuses a terminal with a sentence showing how to pipe it', async () => {
      const before = service.requests.length;
      const run = await runInTerminal(
        ['reports', 'create', '--url', 'https://tty.example', '--privacy', 'password', '--password-stdin'],
        env(),
      );
      expect(run.code).toBe(2);
      expect(run.screen).toContain('--password-stdin reads the password from a pipe');
      expect(run.screen).toContain('printf %s "$PASSWORD" | report-desk reports create');
      expect(service.requests.length).toBe(before);
    });

    it('reports update --password-stdin refuses a terminal too', async () => {
      const before = service.requests.length;
      const run = await runInTerminal(
        ['reports', 'update', '1', '--privacy', 'password', '--password-stdin'],
        env(),
      );
      expect(run.code).toBe(2);
      expect(run.screen).toContain('pipe it in: printf %s "$PASSWORD" | report-desk reports update');
      expect(service.requests.length).toBe(before);
    });

    it('profiles add refuses to read the API key from a terminal', async () => {
      const before = service.requests.length;
      const run = await runInTerminal(['profiles', 'add', 'Work', '--base-url', service.baseUrl], {
        REPORT_DESK_DATA_DIR: dataDir,
      });
      expect(run.code).toBe(2);
      expect(run.screen).toContain('pipe it in: printf %s "$KEY" | report-desk profiles add NAME');
      expect(service.requests.length).toBe(before);
    });
  },
);
