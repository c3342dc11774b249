// Runs ReportDesk's own commands on a Node the project supports: `npm start`, `npm run cli`,
// `npm run preview`, `npm run demo-service`, `npm run screenshots` (and bin/report-desk.mjs uses
// chooseNode). npm starts this file with the first `node` on PATH, which may be older than
// package.json's `engines` (Debian 12's Node 20). Then every step runs on the project's Node in
// .tools/node24 (scripts/install-node.sh, scripts/node-env.sh), or, where none is installed,
// nothing runs and one sentence names the Node found, the Node needed and the command that
// installs it. So native modules are never rebuilt for a Node the project does not support.
//
// Plain JavaScript with nothing newer than Node 18 (tests/unit/runtime/launch.test.ts parses it
// as ES2022 and runs it on this machine's Node 20): it has to run on the old Node it replaces.
//
//   node scripts/launch.mjs start|cli|preview|demo-service|screenshots [args...]
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectDir = fileURLToPath(new URL('..', import.meta.url));

/** Where the project's Node is installed; tests point it at an empty folder. */
export const NODE_DIR_ENV = 'REPORT_DESK_NODE_DIR';
/** The script that installs the project's Node (named in the sentence when it is missing). */
const INSTALL_NODE_SCRIPT = join(projectDir, 'scripts', 'install-node.sh');

/** The command that installs the project's Node, as typed from `cwd` (./scripts/… from the project). */
export function installNodeCommand(cwd = process.cwd()) {
  const path = relative(cwd, INSTALL_NODE_SCRIPT);
  return path.startsWith('..') || isAbsolute(path) ? INSTALL_NODE_SCRIPT : `.${sep}${path}`;
}

/** package.json's `engines.node` (">=22.12") as { major, minor, patch, text }. */
export function requiredNode(
  packageJson = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')),
) {
  const range = String((packageJson.engines && packageJson.engines.node) || '');
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`package.json engines.node must read ">=MAJOR.MINOR", not "${range}"`);
  const [major, minor = 0, patch = 0] = match.slice(1).map((part) => Number(part || 0));
  return { major, minor, patch, text: match[3] ? `${major}.${minor}.${patch}` : `${major}.${minor}` };
}

/** Whether a Node version ("20.20.2" or "v20.20.2") meets the requirement. */
export function isSupportedNode(version, required = requiredNode()) {
  const parts = String(version).replace(/^v/, '').split('.').map(Number);
  const wanted = [required.major, required.minor, required.patch];
  for (let i = 0; i < 3; i++) {
    const part = parts[i] || 0;
    if (part !== wanted[i]) return part > wanted[i];
  }
  return true;
}

/** The folder the project's Node is installed in (REPORT_DESK_NODE_DIR or .tools/node24). */
export function projectNodeDir(env = process.env) {
  return env[NODE_DIR_ENV] ? resolve(env[NODE_DIR_ENV]) : join(projectDir, '.tools', 'node24');
}

/**
 * The project's Node, as scripts/node-env.sh installs it (node_modules/node-<os>-<arch>/bin/node
 * under the folder), when it is there and supported: { binary, packageDir, version } or null.
 */
export function installedProjectNode(dir = projectNodeDir(), required = requiredNode()) {
  const modules = join(dir, 'node_modules');
  const names = existsSync(modules) ? readdirSync(modules).filter((name) => name.startsWith('node-')) : [];
  for (const name of names.sort()) {
    const packageDir = join(modules, name);
    const binary = join(packageDir, 'bin', 'node');
    const version = packageVersion(packageDir);
    if (version && existsSync(binary) && isSupportedNode(version, required))
      return { binary, packageDir, version };
  }
  return null;
}

function packageVersion(packageDir) {
  try {
    return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** The one sentence for a Node that is too old while the project's is not installed. */
export function nodeTooOldMessage(found, execPath, required = requiredNode(), platform = process.platform) {
  const install =
    platform === 'win32'
      ? 'install Node 24 LTS with: winget install OpenJS.NodeJS.LTS'
      : `install the project's Node 24 with: ${installNodeCommand()}`;
  return `ReportDesk needs Node ${required.text} or later, but the Node found is ${String(found).replace(/^v/, '')} (${execPath}); ${install}`;
}

/**
 * Which Node runs ReportDesk: this one when supported, else the project's. Answers
 * { node, headers } (headers: a folder with include/node for native builds, or null) or
 * { error } with the sentence.
 */
export function chooseNode({
  version = process.versions.node,
  execPath = process.execPath,
  env = process.env,
  platform = process.platform,
} = {}) {
  const required = requiredNode();
  if (isSupportedNode(version, required)) return { node: execPath, headers: null };
  const installed = installedProjectNode(projectNodeDir(env), required);
  if (installed) {
    const headers = existsSync(join(installed.packageDir, 'include', 'node', 'node.h'))
      ? installed.packageDir
      : null;
    return { node: installed.binary, headers };
  }
  return { error: nodeTooOldMessage(version, execPath, required, platform) };
}

/** The environment for a step on `node`: its folder first on PATH, so every nested `node` is it. */
export function stepEnv(node, env = process.env, extra = {}) {
  const pathKey = Object.keys(env).find((key) => key.toUpperCase() === 'PATH') || 'PATH';
  const path = env[pathKey] ? dirname(node) + delimiter + env[pathKey] : dirname(node);
  return Object.assign({}, env, { [pathKey]: path }, extra);
}

function tsxCli() {
  const manifest = JSON.parse(readFileSync(join(projectDir, 'node_modules', 'tsx', 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.tsx;
  return join(projectDir, 'node_modules', 'tsx', bin);
}

/** `npm run -s <script>` on the chosen Node: npm's own script file when npm started us. */
function npmRun(node, script, env) {
  const npmCli = env.npm_execpath;
  return npmCli && /\.[cm]?js$/.test(npmCli)
    ? [node, npmCli, 'run', '-s', script]
    : ['npm', 'run', '-s', script];
}

/**
 * The steps of a task, each [command, ...args] plus, for native-module builds, the headers to
 * build against. The last step is the long-running one (the app, the CLI, a server).
 */
export function taskSteps(task, args, { node, headers = null, env = process.env }) {
  const nativeModules = (target) => ({
    argv: [node, join(projectDir, 'scripts', 'native-modules.mjs'), target],
    // npm rebuild's node-gyp builds against these headers, not against a ~/.npmrc nodedir (another Node's).
    env: headers ? { npm_config_nodedir: headers } : {},
  });
  const tsx = (entry) => ({ argv: [node, tsxCli(), join(projectDir, entry), ...args] });
  switch (task) {
    case 'start':
      return [
        { argv: npmRun(node, 'build', env) },
        nativeModules('electron'),
        { argv: [node, join(projectDir, 'node_modules', 'electron', 'cli.js'), projectDir, ...args] },
      ];
    case 'cli':
      return [nativeModules('node'), tsx('electron/cli/main.ts')];
    case 'preview':
      return [
        { argv: npmRun(node, 'build:renderer', env) },
        nativeModules('node'),
        tsx('electron/preview/run.ts'),
      ];
    case 'demo-service':
      return [tsx('electron/demo-service/run.ts')];
    case 'screenshots':
      return [{ argv: [node, join(projectDir, 'scripts', 'screenshots.mjs'), ...args] }];
    default:
      return null;
  }
}

const FORWARDED_SIGNALS = ['SIGTERM', 'SIGHUP'];

/**
 * Runs one command to its end with the terminal's stdio. Ctrl-C reaches the child from the
 * terminal itself, so this process only waits for it; SIGTERM and SIGHUP are passed on.
 * Resolves { code, signal }.
 */
export function runStep(argv, env) {
  return new Promise((resolvePromise) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit', env });
    const ignoreInterrupt = () => {};
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', ignoreInterrupt);
    for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
    const done = (result) => {
      process.removeListener('SIGINT', ignoreInterrupt);
      for (const signal of FORWARDED_SIGNALS) process.removeListener(signal, forward);
      resolvePromise(result);
    };
    child.on('error', (error) => {
      console.error(`Could not start ${argv[0]}: ${error.message}`);
      done({ code: 1, signal: null });
    });
    child.on('exit', (code, signal) => done({ code, signal }));
  });
}

/** Runs the steps in order, stopping at the first that fails; answers the exit code (or signal). */
export async function runSteps(steps, node, env = process.env) {
  for (const step of steps) {
    const result = await runStep(step.argv, stepEnv(node, env, step.env));
    if (result.signal || result.code !== 0) return result;
  }
  return { code: 0, signal: null };
}

/** Ends this process the way its last step ended (a signal is re-raised, so callers see it). */
export function exitLike(result) {
  if (result.signal) {
    process.kill(process.pid, result.signal);
    return;
  }
  process.exit(result.code === null ? 1 : result.code);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [task, ...args] = process.argv.slice(2);
  const choice = chooseNode();
  if (choice.error) {
    console.error(choice.error);
    process.exit(1);
  }
  const steps = taskSteps(task, args, { node: choice.node, headers: choice.headers });
  if (!steps) {
    console.error('usage: node scripts/launch.mjs start|cli|preview|demo-service|screenshots [args...]');
    process.exit(2);
  }
  exitLike(await runSteps(steps, choice.node));
}
