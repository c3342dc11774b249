// What runs ReportDesk's own commands on a Node the project supports (the entry point npm
// starts is scripts/launch.mjs: `npm start`, `npm run cli`, `npm run preview`,
// `npm run demo-service`, `npm run screenshots`, and with `exec` any command: `npm run stress`,
// `npm run bench`); bin/report-desk.mjs uses chooseNode. npm starts the entry with the first
// `node` on PATH, which may be older than package.json's `engines` (Debian 12's Node 20). Then
// every step runs on the project's Node in .tools/node24 (scripts/install-node.sh,
// scripts/node-env.sh), or, where none is installed, nothing runs and one sentence names the
// Node found, the Node needed and the command that installs it. So native modules are never
// rebuilt for a Node the project does not support.
//
// Plain JavaScript with nothing newer than Node 18 (tests/unit/runtime/launch.test.ts parses it
// as ES2022 and runs it on this machine's Node 20): it has to run on the old Node it replaces.
//
//   node scripts/launch.mjs start|cli|preview|demo-service|screenshots [args...]
//   node scripts/launch.mjs exec COMMAND [args...]   (COMMAND finds the chosen Node first on PATH)
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectDir = fileURLToPath(new URL('..', import.meta.url));

/** Where the project's Node is installed; tests point it at an empty folder. */
export const NODE_DIR_ENV = 'REPORT_DESK_NODE_DIR';
/** The script that installs the project's Node (named in the sentence when it is missing). */
const INSTALL_NODE_SCRIPT = join(projectDir, 'scripts', 'install-node.sh');
const TASKS = 'start|cli|preview|demo-service|screenshots|exec';

/** The command that installs the project's Node, as typed from `cwd` (./scripts/… from the project). */
export function installNodeCommand(cwd = process.cwd()) {
  const path = relative(cwd, INSTALL_NODE_SCRIPT);
  return path.startsWith('..') || isAbsolute(path) ? INSTALL_NODE_SCRIPT : `.${sep}${path}`;
}

/** A JSON file's value (Buffer#toString reads it as UTF-8). */
function readJson(file) {
  return JSON.parse(readFileSync(file).toString());
}

/** package.json's `engines.node` (">=22.12") as { major, minor, patch, text }. */
export function requiredNode(packageJson = readJson(join(projectDir, 'package.json'))) {
  const range = packageJson.engines ? String(packageJson.engines.node) : '';
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`package.json engines.node must read ">=MAJOR.MINOR", not "${range}"`);
  const [major, minor, patch] = match
    .slice(1)
    .map(Number)
    .map((part) => part || 0);
  return { major, minor, patch, text: match[3] ? `${major}.${minor}.${patch}` : `${major}.${minor}` };
}

/** "v20.20.2" → "20.20.2" (process.version has the v, process.versions.node has not). */
function bareVersion(version) {
  const text = String(version);
  return text.startsWith('v') ? text.slice(1) : text;
}

/** Whether a Node version ("20.20.2" or "v20.20.2") meets the requirement. */
export function isSupportedNode(version, required = requiredNode()) {
  const parts = bareVersion(version).split('.').map(Number);
  const wanted = [required.major, required.minor, required.patch];
  for (const [i, want] of wanted.entries()) {
    if (parts[i] > want) return true;
    if (parts[i] < want) return false;
  }
  return true;
}

/** The folder the project's Node is installed in (REPORT_DESK_NODE_DIR or .tools/node24). */
export function projectNodeDir(env = process.env) {
  return env[NODE_DIR_ENV] ? resolve(env[NODE_DIR_ENV]) : join(projectDir, '.tools', 'node24');
}

function packageVersion(packageDir) {
  const manifest = join(packageDir, 'package.json');
  return existsSync(manifest) ? readJson(manifest).version : undefined;
}

/**
 * The project's Node, as scripts/node-env.sh installs it (node_modules/node-<os>-<arch>/bin/node
 * under the folder), when it is there and supported: { binary, packageDir, version } or null.
 */
export function installedProjectNode(dir = projectNodeDir(), required = requiredNode()) {
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) return null;
  for (const name of readdirSync(modules)) {
    const packageDir = join(modules, name);
    const binary = join(packageDir, 'bin', 'node');
    const version = packageVersion(packageDir);
    if (name.startsWith('node-') && version && existsSync(binary) && isSupportedNode(version, required)) {
      return { binary, packageDir, version };
    }
  }
  return null;
}

/** The one sentence for a Node that is too old while the project's is not installed. */
export function nodeTooOldMessage(found, execPath, required = requiredNode(), platform = process.platform) {
  const install =
    platform === 'win32'
      ? 'install Node 24 LTS with: winget install OpenJS.NodeJS.LTS'
      : `install the project's Node 24 with: ${installNodeCommand()}`;
  return `ReportDesk needs Node ${required.text} or later, but the Node found is ${bareVersion(found)} (${execPath}); ${install}`;
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
  if (!installed) return { error: nodeTooOldMessage(version, execPath, required, platform) };
  const hasHeaders = existsSync(join(installed.packageDir, 'include', 'node', 'node.h'));
  return { node: installed.binary, headers: hasHeaders ? installed.packageDir : null };
}

/** The environment for a step on `node`: its folder first on PATH, so every nested `node` is it. */
export function stepEnv(node, env = process.env, extra = {}) {
  // Windows spells it Path.
  const pathKey = Object.keys(env).find((key) => key.toUpperCase() === 'PATH') || 'PATH';
  const path = env[pathKey] ? dirname(node) + delimiter + env[pathKey] : dirname(node);
  return Object.assign({}, env, { [pathKey]: path }, extra);
}

/** How to start npm on `node`: npm's own script file when npm started us, else npm from PATH. */
export function npmCommand(node, env = process.env) {
  const npmCli = String(env.npm_execpath);
  return /\.[cm]?js$/.test(npmCli) ? [node, npmCli] : ['npm'];
}

/** npm run -s `script` on `node` (see npmCommand). */
export function npmRun(node, script, env) {
  return [...npmCommand(node, env), 'run', '-s', script];
}

/**
 * The steps of a task, each { argv, env } (env: what the step adds, for native-module builds the
 * headers to build against), or null for an unknown task. The last step is the long-running one
 * (the app, the CLI, a server).
 */
export function taskSteps(task, args, { node, headers = null, env = process.env }) {
  const nativeModules = (target) => ({
    argv: [node, join(projectDir, 'scripts', 'native-modules.mjs'), target],
    // npm rebuild's node-gyp builds against these headers, not against a ~/.npmrc nodedir (another Node's).
    env: headers ? { npm_config_nodedir: headers } : {},
  });
  const tsxDir = join(projectDir, 'node_modules', 'tsx');
  const tsxCli = join(tsxDir, readJson(join(tsxDir, 'package.json')).bin);
  const tsx = (entry) => ({ argv: [node, tsxCli, join(projectDir, entry), ...args], env: {} });
  const tasks = {
    start: () => [
      { argv: npmRun(node, 'build', env), env: {} },
      nativeModules('electron'),
      { argv: [node, join(projectDir, 'node_modules', 'electron', 'cli.js'), projectDir, ...args], env: {} },
    ],
    cli: () => [nativeModules('node'), tsx('electron/cli/main.ts')],
    preview: () => [
      { argv: npmRun(node, 'build:renderer', env), env: {} },
      nativeModules('node'),
      tsx('electron/preview/run.ts'),
    ],
    'demo-service': () => [tsx('electron/demo-service/run.ts')],
    screenshots: () => [{ argv: [node, join(projectDir, 'scripts', 'screenshots.mjs'), ...args], env: {} }],
    exec: () => (args.length > 0 ? [{ argv: args, env: {} }] : null),
  };
  return Object.hasOwn(tasks, task) ? tasks[task]() : null;
}

const FORWARDED_SIGNALS = ['SIGTERM', 'SIGHUP'];

/**
 * Runs one command to its end with the terminal's stdio. Ctrl-C reaches the child from the
 * terminal itself, so this process only waits for it; SIGTERM and SIGHUP are passed on.
 * Resolves { code, signal }.
 */
export function runStep(argv, env, { stdio = 'inherit', error = console.error, signals = process } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(argv[0], argv.slice(1), { stdio, env });
    const ignoreInterrupt = () => {};
    const forward = (signal) => child.kill(signal);
    signals.on('SIGINT', ignoreInterrupt);
    for (const signal of FORWARDED_SIGNALS) signals.on(signal, forward);
    const done = (result) => {
      signals.removeListener('SIGINT', ignoreInterrupt);
      for (const signal of FORWARDED_SIGNALS) signals.removeListener(signal, forward);
      resolvePromise(result);
    };
    child.on('error', (thrown) => {
      error(`Could not start ${argv[0]}: ${thrown.message}`);
      done({ code: 1, signal: null });
    });
    child.on('exit', (code, signal) => done({ code, signal }));
  });
}

/** Runs the steps in order, stopping at the first that fails; answers how the last one ended. */
export async function runSteps(steps, node, env = process.env, options = {}) {
  for (const step of steps) {
    const result = await runStep(step.argv, stepEnv(node, env, step.env), options);
    if (result.signal || result.code !== 0) return result;
  }
  return { code: 0, signal: null };
}

/** Ends the process the way its last step ended (a signal is raised again, so callers see it). */
export function exitLike(result, proc = process) {
  if (result.signal) proc.kill(proc.pid, result.signal);
  else proc.exit(result.code);
}

/** The launcher: answers how its task ended ({ code, signal }). */
export async function launch(argv, { choose = chooseNode, run = runSteps, error = console.error } = {}) {
  const [task, ...args] = argv;
  const choice = choose();
  if (choice.error) {
    error(choice.error);
    return { code: 1, signal: null };
  }
  const steps = taskSteps(task, args, { node: choice.node, headers: choice.headers });
  if (!steps) {
    error(`usage: node scripts/launch.mjs ${TASKS} [args...]`);
    return { code: 2, signal: null };
  }
  return run(steps, choice.node);
}
