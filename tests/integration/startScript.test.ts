/**
 * scripts/start.sh, the README's first command, run for real in bash on a copy of the project
 * whose dependencies are already installed: electron's own installer (install.js and its
 * @electron/get, the real ones) fails to download the runtime from a mirror nothing listens on,
 * and the script says which download failed and the one command that retries it, without a stack
 * trace; with the runtime in place it hands over to `npm start`. dpkg-query, id, apt-get and npm
 * are stand-ins that record their calls (no system package or registry traffic from a test).
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../helpers/network';

const projectDir = fileURLToPath(new URL('../..', import.meta.url));
const electronVersion = (
  JSON.parse(readFileSync(join(projectDir, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;
const roots: string[] = [];

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function executable(path: string, body: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

interface Copy {
  root: string;
  calls: string;
  bin: string;
}

/** The project's scripts and manifests, node_modules installed (newer than the lock file), electron's package. */
function projectCopy({ missingPackage = '' } = {}): Copy {
  const root = mkdtempSync(join(tmpdir(), 'start-sh-'));
  roots.push(root);
  for (const file of [
    'scripts/start.sh',
    'scripts/setup-steps.sh',
    'scripts/node-env.sh',
    'scripts/electron-runtime.mjs',
    'package.json',
    'package-lock.json',
    'node_modules/electron/package.json',
    'node_modules/electron/install.js',
    'node_modules/electron/checksums.json',
  ]) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(projectDir, file), join(root, file));
  }
  chmodSync(join(root, 'scripts/start.sh'), 0o755);
  writeFileSync(join(root, 'node_modules/.package-lock.json'), '{}');
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(root, 'node_modules/.package-lock.json'), later, later);

  const calls = join(root, 'calls');
  const bin = join(root, 'fake-bin');
  const record = (name: string) => `echo "${name} $*" >> "${calls}"`;
  executable(
    join(bin, 'dpkg-query'),
    `${record('dpkg-query')}\nfor last; do :; done\n[ "$last" = "${missingPackage}" ] && exit 1\necho 'install ok installed'`,
  );
  executable(join(bin, 'id'), 'echo 1000');
  executable(join(bin, 'apt-get'), record('apt-get'));
  executable(join(bin, 'npm'), `${record('npm')}\necho "nodedir=\${npm_config_nodedir:-}" >> "${calls}"`);
  return { root, calls, bin };
}

function startSh(copy: Copy, env: Record<string, string> = {}) {
  const result = spawnSync(join(copy.root, 'scripts/start.sh'), [], {
    cwd: copy.root,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      HOME: process.env.HOME,
      // The stand-ins first, then this Node (24: nothing to install into .tools), then the system's.
      PATH: `${copy.bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
      // electron's installer finds @electron/get in the real project's node_modules.
      NODE_PATH: join(projectDir, 'node_modules'),
      npm_config_nodedir: '/headers/of/the/set-up/node',
      ...env,
    },
  });
  const calls = existsSync(copy.calls) ? readFileSync(copy.calls, 'utf8').trim().split('\n') : [];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, calls };
}

describe('scripts/start.sh', () => {
  it('names the Electron download that failed and the command that retries it, and stops', async () => {
    const copy = projectCopy();
    const mirror = `http://127.0.0.1:${await freeLoopbackPort()}/`;
    const result = startSh(copy, { ELECTRON_MIRROR: mirror });
    const platform = `${process.platform}-${process.arch}`;
    expect(result.stderr).toBe(
      `start: the download of the Electron runtime failed (Electron ${electronVersion} for ${platform} from ${mirror}: TypeError: fetch failed); retry it with: ./scripts/start.sh\n`,
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    // Set-up found everything installed, and nothing ran after the failed download.
    expect(result.calls.filter((call) => !call.startsWith('dpkg-query'))).toEqual([]);
    expect(existsSync(join(copy.root, 'node_modules/electron/path.txt'))).toBe(false);
  });

  it('starts the app with npm start once the runtime is there, without the set-up’s header folder', () => {
    const copy = projectCopy();
    const dist = join(copy.root, 'node_modules/electron/dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, 'electron'), '');
    writeFileSync(join(copy.root, 'node_modules/electron/path.txt'), 'electron');
    const result = startSh(copy);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.calls.filter((call) => !call.startsWith('dpkg-query'))).toEqual(['npm start', 'nodedir=']);
  });

  it('names the apt-get command for missing system packages when it cannot install them', () => {
    const copy = projectCopy({ missingPackage: 'libgbm1' });
    const result = startSh(copy);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'setup: missing system packages: libgbm1\nsetup: install them with: sudo apt-get install -y libgbm1\n',
    );
    expect(result.calls.filter((call) => !call.startsWith('dpkg-query'))).toEqual([]);
  });

  it('installs the libraries the .deb declares for the Electron runtime', () => {
    const script = readFileSync(join(projectDir, 'scripts/start.sh'), 'utf8');
    const listed = /^ELECTRON_PACKAGES=\(([^)]*)\)/m.exec(script)?.[1].trim().split(/\s+/) ?? [];
    const builder = load(readFileSync(join(projectDir, 'electron-builder.yml'), 'utf8')) as {
      deb: { depends: string[] };
    };
    expect(builder.deb.depends.length).toBeGreaterThan(0);
    expect(listed).toEqual(expect.arrayContaining(builder.deb.depends));
  });
});
