/**
 * package.json's allowScripts, read by the real npm (11.19 and later: `npm help install-scripts`).
 * What npm 11.19.1 does, as observed here: an install runs the install scripts of packages that
 * allowScripts approves, skips those it denies (`false`), and still RUNS the unreviewed ones,
 * ending with a warning that lists them (only `--strict-allow-scripts` makes that an error). A
 * pinned approval (`keytar@7.9.0`) matches only when npm can read the version from the package's
 * "resolved" address in package-lock.json, so the project keeps them (.npmrc).
 *
 * The policy: keytar's install script builds its native module (there is no prebuilt one npm could
 * fetch here); every other script is denied because nothing needs it: better-sqlite3 ships
 * prebuilt Node-API binaries (its implicit `node-gyp rebuild` finds one and builds nothing), esbuild
 * finds its binary in its platform package, es5-ext only prints a message, and electron-winstaller
 * picks a 7-Zip for Windows installers ReportDesk does not make (NSIS).
 *
 * better-sqlite3's denial is needed although `npm install-scripts prune --dry-run` sometimes calls
 * it unused: an install sees its binding.gyp and runs `node-gyp rebuild` unless it is denied
 * (observed: a build/ folder appears), and prune agrees while it reads the tree from the
 * install's node_modules/.package-lock.json; once anything newer is written into node_modules it
 * reads each package.json instead, where better-sqlite3's `"gypfile": false` hides the script.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const projectDir = fileURLToPath(new URL('../../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as {
  allowScripts: Record<string, boolean>;
};

function npmJson(args: string[]): unknown {
  const result = spawnSync('npm', [...args, '--json'], { cwd: projectDir, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

function installedVersion(name: string): string {
  return (
    JSON.parse(readFileSync(join(projectDir, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
}

const npmKnowsInstallScripts =
  spawnSync('npm', ['help', 'install-scripts'], { encoding: 'utf8' }).status === 0;
if (!npmKnowsInstallScripts)
  console.warn('install-scripts tests skipped: this npm has no `npm install-scripts` (npm >= 11.19 has)');

describe.skipIf(!npmKnowsInstallScripts)('allowScripts', () => {
  it('covers every installed package with an install script (`npm install-scripts ls` lists nothing)', () => {
    expect(npmJson(['install-scripts', 'ls'])).toEqual({ allowScripts: [] });
  });

  it('approves only keytar, pinned to the installed version, and denies the rest by name', () => {
    const approved = Object.entries(manifest.allowScripts).filter(([, allowed]) => allowed);
    expect(approved).toEqual([[`keytar@${installedVersion('keytar')}`, true]]);
    const denied = Object.entries(manifest.allowScripts)
      .filter(([, allowed]) => !allowed)
      .map(([name]) => name)
      .sort();
    expect(denied).toEqual(['better-sqlite3', 'electron-winstaller', 'es5-ext', 'esbuild']);
  });

  it('can pin: every package in the lock file keeps its registry address', () => {
    const lock = JSON.parse(readFileSync(join(projectDir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string; link?: boolean }>;
    };
    const withoutAddress = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !entry.link && !entry.resolved)
      .map(([path]) => path);
    expect(withoutAddress).toEqual([]);
    expect(readFileSync(join(projectDir, '.npmrc'), 'utf8')).toMatch(
      /^omit-lockfile-registry-resolved=false$/m,
    );
  });
});
