// Where the Electron runtime binary is, found WITHOUT require('electron'). From electron 42 on,
// the package's index.js (getElectronPath) downloads the binary on the first require when
// node_modules/electron/path.txt or dist/<path.txt> is missing — it spawns install.js. A test's
// skip check or the test command's "is it installed?" must never start a download, so this reads
// the same two files index.js reads, and honours ELECTRON_OVERRIDE_DIST_PATH as index.js does.
//
//   node scripts/electron-runtime.mjs            # exit 0 if the runtime is installed, 1 if not
//   node scripts/electron-runtime.mjs --version  # prints the electron package's version
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectDir = fileURLToPath(new URL('..', import.meta.url));

/** @param {string} [root] the project folder @returns {string | null} the binary's path, if installed */
export function installedElectronBinary(root = projectDir, env = process.env) {
  const packageDir = join(root, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : '';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const overridden = join(env.ELECTRON_OVERRIDE_DIST_PATH, executable || 'electron');
    return existsSync(overridden) ? resolve(overridden) : null;
  }
  if (!executable) return null;
  const binary = join(packageDir, 'dist', executable);
  return existsSync(binary) ? binary : null;
}

/** @param {string} [root] @returns {string | null} the installed electron package's version */
export function electronPackageVersion(root = projectDir) {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--version') console.log(electronPackageVersion() ?? 'not installed');
  else process.exit(installedElectronBinary() ? 0 : 1);
}
