// What `npm run screenshots` does (its entry point is scripts/screenshots.mjs): the README's
// pictures (docs/screenshots) made again from the current UI. Builds the renderer, runs the
// end-to-end specs that take those pictures (their screenshotBoth calls, tests/e2e/stack.ts,
// write test-results/screenshots/<name>-<light|dark>.png) in Chromium with a throw-away keyring, and copies every picture README.md shows into docs/screenshots.
// Nothing is copied unless every spec passed and every picture was taken. npm runs it on the
// project's Node (scripts/launch.mjs).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmRun } from './launcher.mjs';

const projectDir = fileURLToPath(new URL('..', import.meta.url));
const E2E_DIR = 'tests/e2e';
const TAKEN = 'test-results/screenshots';
const SHOWN = 'docs/screenshots';

/** The pictures a Markdown text shows from docs/screenshots, by name ('reports-light'), in order. */
export function picturesShown(markdown) {
  const names = [...markdown.matchAll(/\bdocs\/screenshots\/([\w-]+)\.png\b/g)].map((match) => match[1]);
  return [...new Set(names)];
}

/**
 * The spec files that take the pictures, from their screenshotBoth(page, 'name') calls (each
 * makes name-light and name-dark), and the pictures no spec takes.
 */
export function specsTaking(pictures, specs) {
  const files = new Set();
  const untaken = [];
  for (const picture of pictures) {
    const shot = picture.replace(/-(light|dark)$/, '');
    const call = new RegExp(`screenshotBoth\\(\\s*page\\s*,\\s*'${shot}'\\s*\\)`);
    const spec = specs.find(({ source }) => call.test(source));
    if (spec) files.add(spec.file);
    else untaken.push(picture);
  }
  return { files: [...files].sort(), untaken };
}

/** The end-to-end specs, with their source. */
export function e2eSpecs(root = projectDir) {
  return readdirSync(join(root, E2E_DIR))
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => ({
      file: `${E2E_DIR}/${name}`,
      source: readFileSync(join(root, E2E_DIR, name)).toString(),
    }));
}

/** Runs a command in the project folder with the terminal's stdio; answers its exit code. */
export function runCommand(argv, cwd, log = console.log) {
  log(`screenshots: ${argv.join(' ')}`);
  return spawnSync(argv[0], argv.slice(1), { cwd, stdio: 'inherit' }).status ?? 1;
}

/**
 * The whole command: answers its exit code. `run` starts each step (the renderer's build, then the
 * specs in Chromium with a throw-away keyring) and answers its exit code.
 */
export function regenerate({
  root = projectDir,
  env = process.env,
  run = runCommand,
  log = console.log,
  error = console.error,
} = {}) {
  const pictures = picturesShown(readFileSync(join(root, 'README.md'), 'utf8'));
  const { files, untaken } = specsTaking(pictures, e2eSpecs(root));
  if (untaken.length > 0) {
    error(`screenshots: no end-to-end spec takes ${untaken.join(', ')} (README.md shows them)`);
    return 1;
  }
  // Pictures of an earlier run must not stand in for ones this run failed to take.
  rmSync(join(root, TAKEN), { recursive: true, force: true });
  const playwright = join(root, 'node_modules', '@playwright', 'test', 'cli.js');
  const steps = [
    npmRun(process.execPath, 'build:renderer', env),
    [
      './scripts/with-keyring.sh',
      process.execPath,
      playwright,
      'test',
      '-c',
      `${E2E_DIR}/playwright.config.ts`,
      ...files,
    ],
  ];
  for (const step of steps) {
    const status = run(step, root);
    if (status !== 0) {
      error(`screenshots: stopped, ${step.join(' ')} failed (exit ${status}); ${SHOWN} is unchanged`);
      return status;
    }
  }
  const missing = pictures.filter((picture) => !existsSync(join(root, TAKEN, `${picture}.png`)));
  if (missing.length > 0) {
    error(`screenshots: the run did not take ${missing.join(', ')}; ${SHOWN} is unchanged`);
    return 1;
  }
  for (const picture of pictures) {
    copyFileSync(join(root, TAKEN, `${picture}.png`), join(root, SHOWN, `${picture}.png`));
  }
  log(`screenshots: ${pictures.length} pictures copied into ${SHOWN}: ${pictures.join(', ')}`);
  return 0;
}
