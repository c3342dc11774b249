// Builds the native modules (keytar, better-sqlite3) for the runtime about to load them.
// Node (tests, CLI, preview) and Electron (the app) have different ABIs, and one node_modules
// holds one build, so `npm start` switches to Electron's and the test command, `npm run cli` and
// `npm run preview` switch back to Node's.
//
// Which build is there is decided by LOADING the modules in a child process of the target
// runtime (Electron as plain Node through ELECTRON_RUN_AS_NODE), never by a marker file: a marker
// goes stale after `npm rebuild`, `npm run dist` or a Node upgrade, and the app then fails to open
// its data with the wrong ABI.
//
//   node scripts/native-modules.mjs node       # for Node: npm rebuild
//   node scripts/native-modules.mjs electron   # for Electron: electron-builder install-app-deps
import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedElectronBinary } from './electron-runtime.mjs';
import { isSupportedNode, nodeTooOldMessage } from './launcher.mjs';

export const NATIVE_MODULES = ['keytar', 'better-sqlite3'];

// keytar loads its .node file on require; better-sqlite3 only when a database is opened.
const LOAD_PROBE = "require('keytar'); new (require('better-sqlite3'))(':memory:').close()";
// `-e` code resolves packages from its working directory: the project's node_modules.
const projectDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs npm/npx. On Windows they are npm.cmd/npx.cmd batch files, which execFile cannot start
 * without a shell (ENOENT for "npm"; EINVAL for "npm.cmd" since Node 20.12.2, the fix for
 * CVE-2024-27980, https://nodejs.org/en/blog/vulnerability/april-2024-security-releases-2).
 * There the command runs through the shell as one line of fixed words (passing an args array
 * with shell: true is deprecated, DEP0190, because the args are not escaped).
 */
export function runTool(
  command,
  args,
  { platform = process.platform, exec = execFileSync, spawn = spawnSync, cwd = projectDir } = {},
) {
  if (platform !== 'win32') {
    exec(command, args, { stdio: 'inherit', cwd });
    return;
  }
  for (const word of [command, ...args]) {
    if (!/^[\w@./:=-]+$/.test(word)) throw new Error(`refusing to pass "${word}" through the Windows shell`);
  }
  const result = spawn([command, ...args].join(' '), { stdio: 'inherit', shell: true, cwd });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

/** The command that rebuilds the native modules for a target. */
export function rebuildCommand(target) {
  return target === 'node'
    ? { command: 'npm', args: ['rebuild', ...NATIVE_MODULES] }
    : { command: 'npx', args: ['electron-builder', 'install-app-deps'] };
}

/**
 * Whether the modules load in the target runtime: { ok: true } or { ok: false, reason }.
 * `electronBinary` is null when the Electron runtime is not installed.
 */
export function probeNativeModules(
  target,
  { electronBinary = installedElectronBinary(), spawn = spawnSync } = {},
) {
  let runtime = process.execPath;
  const env = { ...process.env };
  if (target === 'electron') {
    if (!electronBinary) return { ok: false, reason: 'the Electron runtime is not installed' };
    runtime = electronBinary;
    env.ELECTRON_RUN_AS_NODE = '1';
  }
  const result = spawn(runtime, ['-e', LOAD_PROBE], {
    cwd: projectDir,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status === 0) return { ok: true };
  // A build for another runtime throws ("compiled against a different Node.js version") or, for
  // N-API modules built against newer headers, can crash the process outright (SIGSEGV).
  const errorLine = `${result.stderr ?? ''}`.split('\n').find((line) => /error/i.test(line));
  const reason =
    errorLine?.trim() ??
    result.error?.message ??
    (result.signal ? `loading them crashed the runtime (${result.signal})` : `exit code ${result.status}`);
  return { ok: false, reason };
}

/** Makes the modules load in the target runtime, rebuilding only when they do not. Returns the exit code. */
export function ensureNativeModules(target, deps = {}) {
  const { log = console.log, error = console.error } = deps;
  // A build for a Node the project does not support is never made: it would only replace the
  // supported Node's build (npm start, npm run cli and npm run preview run on that one, see launcher.mjs).
  const nodeVersion = deps.nodeVersion ?? process.versions.node;
  if (!isSupportedNode(nodeVersion)) {
    error(
      `native modules: not rebuilt. ${nodeTooOldMessage(nodeVersion, deps.execPath ?? process.execPath)}`,
    );
    return 1;
  }
  const probe = (deps.probe ?? probeNativeModules)(target, deps);
  if (probe.ok) return 0;
  if (target === 'electron' && probe.reason === 'the Electron runtime is not installed') {
    error(
      'native modules: the Electron runtime is not installed; download it with ./scripts/start.sh (which then starts the app)',
    );
    return 1;
  }
  const name = target === 'node' ? 'Node' : "Electron's ABI";
  log(`native modules: keytar and better-sqlite3 do not load for ${name} (${probe.reason}); rebuilding them`);
  const { command, args } = rebuildCommand(target);
  try {
    runTool(command, args, deps);
  } catch (thrown) {
    error(
      `native modules: the rebuild failed (${thrown instanceof Error ? thrown.message : String(thrown)})`,
    );
    return 1;
  }
  const after = (deps.probe ?? probeNativeModules)(target, deps);
  if (after.ok) return 0;
  error(`native modules: rebuilt, but they still do not load for ${name}: ${after.reason}`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (target !== 'node' && target !== 'electron') {
    console.error('usage: node scripts/native-modules.mjs node|electron');
    process.exit(2);
  }
  process.exit(ensureNativeModules(target));
}
