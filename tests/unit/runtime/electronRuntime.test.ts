/**
 * scripts/electron-runtime.mjs, the "is the Electron runtime installed?" check of the test command
 * and of the Electron end-to-end skip. From electron 42 on, require('electron') downloads the
 * binary when it is missing (node_modules/electron/index.js → install.js); the check must not.
 * Proved against a copy of the installed package's own index.js whose install.js only records
 * that it was started.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { electronPackageVersion, installedElectronBinary } from '../../../scripts/electron-runtime.mjs';

const projectDir = fileURLToPath(new URL('../../..', import.meta.url));
const realPackage = join(projectDir, 'node_modules', 'electron');
const roots: string[] = [];

/** A project whose electron package is the real one, except that install.js records its start. */
function projectWithElectronPackage(): { root: string; downloadStarted: string } {
  const root = mkdtempSync(join(tmpdir(), 'electron-runtime-'));
  roots.push(root);
  const packageDir = join(root, 'node_modules', 'electron');
  mkdirSync(packageDir, { recursive: true });
  for (const file of ['index.js', 'package.json'])
    copyFileSync(join(realPackage, file), join(packageDir, file));
  const downloadStarted = join(root, 'download-started');
  writeFileSync(
    join(packageDir, 'install.js'),
    `require('fs').writeFileSync(${JSON.stringify(downloadStarted)}, 'yes'); process.exit(1);\n`,
  );
  return { root, downloadStarted };
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('installedElectronBinary', () => {
  it('finds no runtime without starting a download', () => {
    const { root, downloadStarted } = projectWithElectronPackage();
    expect(installedElectronBinary(root, {})).toBeNull();
    expect(existsSync(downloadStarted)).toBe(false);
  });

  it("is needed: the package's own require starts the download (the test is not vacuous)", () => {
    const { root, downloadStarted } = projectWithElectronPackage();
    const result = spawnSync(process.execPath, ['-e', "require('electron')"], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.status).not.toBe(0);
    expect(existsSync(downloadStarted)).toBe(true);
  });

  it('finds an installed runtime where index.js would (path.txt → dist/)', () => {
    const { root, downloadStarted } = projectWithElectronPackage();
    const packageDir = join(root, 'node_modules', 'electron');
    writeFileSync(join(packageDir, 'path.txt'), 'electron');
    expect(installedElectronBinary(root, {})).toBeNull(); // path.txt alone: the binary is missing
    mkdirSync(join(packageDir, 'dist'));
    writeFileSync(join(packageDir, 'dist', 'electron'), '');
    expect(installedElectronBinary(root, {})).toBe(join(packageDir, 'dist', 'electron'));
    expect(existsSync(downloadStarted)).toBe(false);
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH as index.js does', () => {
    const { root } = projectWithElectronPackage();
    const dist = join(root, 'custom-dist');
    expect(installedElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: dist })).toBeNull();
    mkdirSync(dist);
    writeFileSync(join(dist, 'electron'), '');
    expect(installedElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: dist })).toBe(join(dist, 'electron'));
  });

  it('as a command, answers with its exit code and never writes into the electron package', () => {
    const script = join(projectDir, 'scripts', 'electron-runtime.mjs');
    const installed = installedElectronBinary();
    const result = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(result.status).toBe(installed ? 0 : 1);
    if (!installed) expect(existsSync(join(realPackage, 'path.txt'))).toBe(false);
    const version = spawnSync(process.execPath, [script, '--version'], { encoding: 'utf8' });
    expect(version.stdout.trim()).toBe(electronPackageVersion());
  });
});

describe('the supported Electron', () => {
  it('is the newest stable major, 45, and the Node for development is the one it requires', () => {
    const pkg = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as {
      engines: { node: string };
      devDependencies: Record<string, string>;
    };
    expect(Number(electronPackageVersion()?.split('.')[0])).toBeGreaterThanOrEqual(45);
    expect(pkg.devDependencies['@types/node']).toMatch(/^\^24\./);
    const electronEngines = JSON.parse(readFileSync(join(realPackage, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(electronEngines.engines.node.replace(/\s/g, '')).toBe('>=22.12.0');
    expect(pkg.engines.node).toBe('>=22.12');
  });
});
