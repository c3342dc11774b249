/**
 * The README's commands on a machine whose first Node is older than `engines` (Debian 12's Node
 * 20, this machine's /usr/bin/node): `npm run cli` runs on the project's Node from .tools/node24
 * (scripts/launch.mjs), and where none is installed every entry point stops with one sentence
 * before doing anything. Real npm, real processes; the project's Node is the one the test command
 * installed (scripts/setup.sh), and the missing one is an empty folder given by REPORT_DESK_NODE_DIR.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { installedProjectNode, installNodeCommand, isSupportedNode } from '../../scripts/launcher.mjs';

const projectDir = fileURLToPath(new URL('../..', import.meta.url));
const OLD_NODE = '/usr/bin/node';

function nodeVersion(binary: string): string | null {
  const result = spawnSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

const oldVersion = existsSync(OLD_NODE) ? nodeVersion(OLD_NODE) : null;
const projectNode = installedProjectNode();
/** Why the premise does not hold here (then the tests skip, saying so), or null. */
const missingPremise =
  oldVersion === null
    ? `there is no ${OLD_NODE}`
    : isSupportedNode(oldVersion)
      ? `${OLD_NODE} is Node ${oldVersion}, which the project supports (nothing to replace)`
      : projectNode === null
        ? "the project's Node is not installed in .tools/node24 (run ./scripts/install-node.sh)"
        : null;
if (missingPremise) console.warn(`launcher tests skipped: ${missingPremise}`);

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'launcher-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A PATH whose first node is the old one (and npm the system's), as on a stock Debian 12. */
function oldNodeEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: '/usr/bin:/bin', ...extra };
  // Whatever the test runner's npm set must not leak into the npm started here.
  for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
  return env;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(command, args, { cwd: projectDir, env, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(missingPremise !== null)('with Node 20 first on PATH', () => {
  it("loading better-sqlite3 crashes that Node (so a working CLI proves it ran on the project's)", () => {
    const crashed = run(
      OLD_NODE,
      ['-e', "new (require('better-sqlite3'))(':memory:').close()"],
      oldNodeEnv(),
    );
    expect(crashed.status).not.toBe(0);
  });

  it("`npm run cli` runs the CLI on the project's Node, without rebuilding anything", () => {
    const dataDir = join(tempDir(), 'data');
    const result = run(
      'npm',
      ['run', '-s', 'cli', '--', '--data-dir', dataDir, 'profiles', 'list'],
      oldNodeEnv(),
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^No profiles yet\./);
    // The CLI opened its SQLite cache: better-sqlite3 loaded, which Node 20 cannot do.
    expect(readdirSync(dataDir)).toContain('cache.sqlite');
  });

  it('bin/report-desk.mjs started by Node 20 runs the built CLI on the project’s Node', () => {
    const built = join(projectDir, 'dist', 'cli', 'report-desk.mjs');
    if (!existsSync(built)) run(projectNode!.binary, ['scripts/build-node.mjs'], oldNodeEnv());
    const dataDir = join(tempDir(), 'data');
    const result = run(
      OLD_NODE,
      ['bin/report-desk.mjs', '--data-dir', dataDir, 'profiles', 'list'],
      oldNodeEnv(),
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^No profiles yet\./);
    expect(result.status).toBe(0);
    expect(readdirSync(dataDir)).toContain('cache.sqlite');
  });
});

describe.skipIf(oldVersion === null || isSupportedNode(oldVersion))('with no project Node installed', () => {
  const sentence = () =>
    `ReportDesk needs Node 22.12 or later, but the Node found is ${oldVersion} (${OLD_NODE}); install the project's Node 24 with: ${installNodeCommand(projectDir)}\n`;

  it('`npm run cli`, `npm run preview`, `npm start` and bin/report-desk.mjs stop with one sentence, before anything else', () => {
    const emptyToolsDir = tempDir();
    const dataDir = join(tempDir(), 'data');
    const env = oldNodeEnv({ REPORT_DESK_NODE_DIR: emptyToolsDir });
    const runs = [
      run('npm', ['run', '-s', 'cli', '--', '--data-dir', dataDir, 'profiles', 'list'], env),
      run('npm', ['run', '-s', 'preview'], env),
      run('npm', ['run', '-s', 'start'], env),
      run(OLD_NODE, ['bin/report-desk.mjs', '--data-dir', dataDir, 'profiles', 'list'], env),
    ];
    for (const result of runs) {
      expect(result).toEqual({ status: 1, stdout: '', stderr: sentence() });
    }
    // Nothing ran: no data folder, nothing installed into the empty tools folder.
    expect(existsSync(dataDir)).toBe(false);
    expect(readdirSync(emptyToolsDir)).toEqual([]);
  });

  it('scripts/native-modules.mjs refuses to rebuild for that Node', () => {
    const fakeBin = tempDir();
    const npmCalls = join(fakeBin, 'npm-calls');
    // npm and npx stand-ins that record any call: a rebuild would go through them.
    for (const tool of ['npm', 'npx']) {
      writeFileSync(join(fakeBin, tool), `#!/bin/sh\necho "${tool} $*" >> "${npmCalls}"\n`);
      chmodSync(join(fakeBin, tool), 0o755);
    }
    for (const target of ['node', 'electron']) {
      const result = run(OLD_NODE, ['scripts/native-modules.mjs', target], {
        ...oldNodeEnv(),
        PATH: `${fakeBin}:/usr/bin:/bin`,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(`native modules: not rebuilt. ${sentence()}`);
    }
    expect(existsSync(npmCalls)).toBe(false);
  });
});
