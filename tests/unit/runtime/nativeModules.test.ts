/**
 * scripts/native-modules.mjs: how it starts npm/npx on each platform (Windows needs a shell for
 * the .cmd shims) and how it decides a rebuild — by loading the modules in a child process of the
 * target runtime, never by a marker file.
 */
import { spawnSync as realSpawnSync, type execFileSync, type spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ensureNativeModules,
  probeNativeModules,
  rebuildCommand,
  runTool,
  type Probe,
} from '../../../scripts/native-modules.mjs';
import { installNodeCommand, taskSteps } from '../../../scripts/launcher.mjs';

// npm and npx run in the project folder, wherever the script is started from.
const projectDir = fileURLToPath(new URL('../../..', import.meta.url));

interface Spawned {
  kind: 'exec' | 'spawn';
  command: string;
  args?: readonly string[];
  options?: Record<string, unknown>;
}

/**
 * child_process as it behaves on each platform. On win32, npm and npx are npm.cmd / npx.cmd:
 * execFile without a shell cannot find "npm" (ENOENT) and refuses "npm.cmd" (EINVAL, Node >= 20.12.2,
 * https://nodejs.org/en/blog/vulnerability/april-2024-security-releases-2); through a shell both run.
 */
function fakeChildProcess(platform: NodeJS.Platform) {
  const spawned: Spawned[] = [];
  const exec = ((command: string, args: readonly string[], options: Record<string, unknown>) => {
    spawned.push({ kind: 'exec', command, args, options });
    if (platform === 'win32' && !options?.shell) {
      const code = command.endsWith('.cmd') ? 'EINVAL' : 'ENOENT';
      throw Object.assign(new Error(`spawn ${command} ${code}`), { code });
    }
    return Buffer.alloc(0);
  }) as unknown as typeof execFileSync;
  const spawn = ((command: string, options: Record<string, unknown>) => {
    spawned.push({ kind: 'spawn', command, options });
    if (platform === 'win32' && !options?.shell) {
      return { status: null, error: Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' }) };
    }
    return { status: 0, error: undefined, stdout: '', stderr: '' };
  }) as unknown as typeof spawnSync;
  return { spawned, exec, spawn };
}

describe('runTool', () => {
  it('runs npm through the shell on Windows, as one line', () => {
    const child = fakeChildProcess('win32');
    runTool('npm', ['rebuild', 'keytar', 'better-sqlite3'], { platform: 'win32', ...child });
    expect(child.spawned).toEqual([
      {
        kind: 'spawn',
        command: 'npm rebuild keytar better-sqlite3',
        options: { stdio: 'inherit', shell: true, cwd: projectDir },
      },
    ]);
  });

  it('would fail on Windows without the shell (the fake is not vacuous)', () => {
    const child = fakeChildProcess('win32');
    expect(() => child.exec('npm', ['rebuild'], {})).toThrow(/ENOENT/);
    expect(() => child.exec('npm.cmd', ['rebuild'], {})).toThrow(/EINVAL/);
  });

  it('runs every rebuild command of the script on Windows', () => {
    for (const target of ['node', 'electron'] as const) {
      const child = fakeChildProcess('win32');
      const { command, args } = rebuildCommand(target);
      expect(() => runTool(command, args, { platform: 'win32', ...child })).not.toThrow();
      expect(child.spawned[0]).toMatchObject({ kind: 'spawn', options: { shell: true } });
    }
  });

  it('reports a failing command on Windows', () => {
    const spawn = (() => ({ status: 1 })) as unknown as typeof spawnSync;
    expect(() => runTool('npm', ['rebuild'], { platform: 'win32', spawn })).toThrow(/exited with 1/);
  });

  it('never passes a word the shell would interpret', () => {
    const child = fakeChildProcess('win32');
    expect(() => runTool('npm', ['rebuild', 'a&calc'], { platform: 'win32', ...child })).toThrow(/refusing/);
    expect(child.spawned).toEqual([]);
  });

  it('runs npm without a shell elsewhere', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const child = fakeChildProcess(platform);
      runTool('npx', ['electron-builder', 'install-app-deps'], { platform, ...child });
      expect(child.spawned).toEqual([
        {
          kind: 'exec',
          command: 'npx',
          args: ['electron-builder', 'install-app-deps'],
          options: { stdio: 'inherit', cwd: projectDir },
        },
      ]);
    }
  });
});

describe('ensureNativeModules', () => {
  function run(
    target: 'node' | 'electron',
    probes: Probe[],
    platform: NodeJS.Platform = 'win32',
    nodeVersion = process.versions.node,
  ) {
    const child = fakeChildProcess(platform);
    const lines: string[] = [];
    let probeCount = 0;
    const code = ensureNativeModules(target, {
      platform,
      ...child,
      probe: () => probes[probeCount++] ?? { ok: false, reason: 'no more probes' },
      log: (line) => lines.push(line),
      error: (line) => lines.push(line),
      nodeVersion,
      execPath: '/usr/bin/node',
    });
    return { code, lines, spawned: child.spawned, probeCount };
  }

  it('never rebuilds for a Node older than engines: it names the Node to install instead', () => {
    for (const target of ['node', 'electron'] as const) {
      const result = run(
        target,
        [{ ok: false, reason: 'crashed (SIGSEGV)' }, { ok: true }],
        'linux',
        '20.20.2',
      );
      expect(result).toMatchObject({ code: 1, spawned: [], probeCount: 0 });
      expect(result.lines).toEqual([
        `native modules: not rebuilt. ReportDesk needs Node 22.12 or later, but the Node found is 20.20.2 (/usr/bin/node); install the project's Node 24 with: ${installNodeCommand()}`,
      ]);
    }
    // The same probes on a supported Node do rebuild (the refusal above is the version's doing).
    expect(
      run('node', [{ ok: false, reason: 'crashed (SIGSEGV)' }, { ok: true }], 'linux', '22.12.0'),
    ).toMatchObject({
      code: 0,
      probeCount: 2,
    });
  });

  it('does nothing when the modules already load', () => {
    const result = run('node', [{ ok: true }]);
    expect(result).toMatchObject({ code: 0, spawned: [], lines: [] });
  });

  it('rebuilds when they do not load, says why, and checks again', () => {
    const reason = 'was compiled against a different Node.js version using NODE_MODULE_VERSION 140';
    const result = run('node', [{ ok: false, reason }, { ok: true }]);
    expect(result.code).toBe(0);
    expect(result.probeCount).toBe(2);
    expect(result.lines.join('\n')).toContain(reason);
    expect(result.spawned.map((s) => s.command)).toEqual(['npm rebuild keytar better-sqlite3']);
  });

  it('fails when the rebuilt modules still do not load', () => {
    const result = run('electron', [
      { ok: false, reason: 'first' },
      { ok: false, reason: 'still broken' },
    ]);
    expect(result.code).toBe(1);
    expect(result.lines.at(-1)).toMatch(/still do not load.*still broken/);
  });

  it('asks for the Electron runtime instead of rebuilding without it', () => {
    const result = run('electron', [{ ok: false, reason: 'the Electron runtime is not installed' }], 'linux');
    expect(result.code).toBe(1);
    expect(result.spawned).toEqual([]);
    expect(result.lines).toEqual([
      'native modules: the Electron runtime is not installed; download it with ./scripts/start.sh (which then starts the app)',
    ]);
  });
});

describe('probeNativeModules (real child processes)', () => {
  it('loads both modules in this Node', () => {
    // The test command builds them for the Node it runs on; this is the check npm run cli uses.
    expect(probeNativeModules('node')).toEqual({ ok: true });
  });

  it('reports a runtime that cannot load them, with the reason', () => {
    const spawn = ((...args: Parameters<typeof spawnSync>) => {
      // A real process that fails as a wrong-ABI load does: an Error on stderr, exit 1.
      const [, , options] = args as unknown as [string, string[], Record<string, unknown>];
      const script =
        "console.error('Error: The module was compiled against a different Node.js version'); process.exit(1)";
      return realSpawnSync(process.execPath, ['-e', script], options);
    }) as unknown as typeof spawnSync;
    const probe = probeNativeModules('node', { spawn });
    expect(probe).toEqual({
      ok: false,
      reason: 'Error: The module was compiled against a different Node.js version',
    });
  });

  it('runs Electron as Node for the Electron probe, and needs its runtime', () => {
    expect(probeNativeModules('electron', { electronBinary: null })).toEqual({
      ok: false,
      reason: 'the Electron runtime is not installed',
    });
    const calls: { command: string; env: Record<string, string> }[] = [];
    const spawn = ((command: string, _args: string[], options: { env: Record<string, string> }) => {
      calls.push({ command, env: options.env });
      return { status: 0 };
    }) as unknown as typeof spawnSync;
    expect(probeNativeModules('electron', { electronBinary: '/opt/electron', spawn })).toEqual({ ok: true });
    expect(calls[0]).toMatchObject({ command: '/opt/electron', env: { ELECTRON_RUN_AS_NODE: '1' } });
  });
});

describe('the npm scripts', () => {
  const scripts = (
    JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;

  it('go through the launcher, which switches to the runtime about to load the modules before starting it', () => {
    const node = '/node24/bin/node';
    const argvOf = (task: string) => (taskSteps(task, [], { node, env: {} }) ?? []).map((step) => step.argv);
    const nativeStep = (target: string) => [node, join(projectDir, 'scripts/native-modules.mjs'), target];
    for (const task of ['start', 'cli', 'preview'])
      expect(scripts[task]).toBe(`node scripts/launch.mjs ${task}`);
    expect(argvOf('start').slice(-2)).toEqual([
      nativeStep('electron'),
      [node, join(projectDir, 'node_modules/electron/cli.js'), projectDir],
    ]);
    // After npm start the modules may be Electron's: the Node front ends switch back themselves.
    for (const [task, entry] of [
      ['cli', 'electron/cli/main.ts'],
      ['preview', 'electron/preview/run.ts'],
    ]) {
      expect(argvOf(task).slice(-2)).toEqual([
        nativeStep('node'),
        [node, join(projectDir, 'node_modules/tsx/dist/cli.mjs'), join(projectDir, entry)],
      ]);
    }
  });
});
