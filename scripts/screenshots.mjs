// `npm run screenshots`: the README's pictures (docs/screenshots) made again from the current UI.
// Builds the renderer, runs the end-to-end specs that take those pictures (their screenshotBoth
// calls, tests/e2e/stack.ts, write test-results/screenshots/<name>-<light|dark>.png) in Chromium
// with a throw-away keyring, and copies every picture README.md shows into docs/screenshots.
// Nothing is copied unless every spec passed and every picture was taken. npm runs it on the
// project's Node (scripts/launch.mjs).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
    .map((name) => ({ file: `${E2E_DIR}/${name}`, source: readFileSync(join(root, E2E_DIR, name), 'utf8') }));
}

function run(argv) {
  console.log(`screenshots: ${argv.join(' ')}`);
  const result = spawnSync(argv[0], argv.slice(1), { cwd: projectDir, stdio: 'inherit' });
  return result.status ?? 1;
}

function main() {
  const pictures = picturesShown(readFileSync(join(projectDir, 'README.md'), 'utf8'));
  const { files, untaken } = specsTaking(pictures, e2eSpecs());
  if (untaken.length > 0) {
    console.error(`screenshots: no end-to-end spec takes ${untaken.join(', ')} (README.md shows them)`);
    return 1;
  }
  rmSync(join(projectDir, TAKEN), { recursive: true, force: true });
  const npmCli = process.env.npm_execpath;
  const npm = npmCli && /\.[cm]?js$/.test(npmCli) ? [process.execPath, npmCli] : ['npm'];
  const playwright = join(projectDir, 'node_modules', '@playwright', 'test', 'cli.js');
  const steps = [
    [...npm, 'run', '-s', 'build:renderer'],
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
    const status = run(step);
    if (status !== 0) {
      console.error(
        `screenshots: stopped, ${step.slice(0, 2).join(' ')} failed (exit ${status}); docs/screenshots is unchanged`,
      );
      return status;
    }
  }
  const missing = pictures.filter((picture) => !existsSync(join(projectDir, TAKEN, `${picture}.png`)));
  if (missing.length > 0) {
    console.error(`screenshots: the run did not take ${missing.join(', ')}; docs/screenshots is unchanged`);
    return 1;
  }
  for (const picture of pictures) {
    copyFileSync(join(projectDir, TAKEN, `${picture}.png`), join(projectDir, SHOWN, `${picture}.png`));
  }
  console.log(`screenshots: ${pictures.length} pictures copied into ${SHOWN}: ${pictures.join(', ')}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());
