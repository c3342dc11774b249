/**
 * The packaging configuration, checked without packaging (the Electron runtime cannot be
 * downloaded here): both YAML files against electron-builder's own JSON schema, the e2e file
 * merged by electron-builder's own loader, and the `files` / `asarUnpack` globs run through
 * electron-builder's own matcher on the paths a build produces.
 */
import Ajv from 'ajv';
import type { Configuration } from 'app-builder-lib';
import { FileMatcher } from 'app-builder-lib/out/fileMatcher';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger, serializeToYaml } from 'builder-util';
import { load as loadYaml } from 'js-yaml';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../electron/core/log';
import { readFeedUrl } from '../../../electron/core/updates/appUpdates';

const projectDir = fileURLToPath(new URL('../../..', import.meta.url));
const readProjectFile = (path: string) => readFileSync(join(projectDir, path), 'utf8');

type Config = Record<string, unknown> & {
  files: string[];
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
  protocols: { name: string; schemes: string[] }[];
  win: { target: { target: string; arch: string[] }[] };
  nsis: Record<string, unknown>;
  mac: Record<string, unknown> & { target: { target: string; arch: string[] }[] };
  linux: Record<string, unknown> & { target: string[] };
  deb: { depends: string[] };
  directories: { output: string; buildResources: string };
  icon: string;
  publish: { provider: string; url: string };
};

const config = loadYaml(readProjectFile('electron-builder.yml')) as Config;
const e2eConfig = loadYaml(readProjectFile('electron-builder.e2e.yml')) as Record<string, unknown>;
const packageJson = JSON.parse(readProjectFile('package.json')) as {
  main: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const ajv = new Ajv({ allErrors: true, strict: false });
const validateScheme = ajv.compile(JSON.parse(readProjectFile('node_modules/app-builder-lib/scheme.json')));

/** electron-builder's own glob semantics (dot files, implicit folder contents, negations). */
function matcher(patterns: string[]): (relativePath: string) => boolean {
  const filter = new FileMatcher(projectDir, '/app', (pattern) => pattern, patterns).createFilter();
  const fileStat = { isDirectory: () => false } as unknown as Stats;
  return (relativePath) => filter(join(projectDir, relativePath), fileStat);
}

describe('the schema', () => {
  it('accepts electron-builder.yml', () => {
    expect(validateScheme(config), ajv.errorsText(validateScheme.errors)).toBe(true);
  });

  it('accepts electron-builder.e2e.yml', () => {
    expect(validateScheme(e2eConfig), ajv.errorsText(validateScheme.errors)).toBe(true);
  });

  it('would catch a misspelt option (the check is not vacuous)', () => {
    const misspelt = { ...config, electronFuses: { ...config.electronFuses, runAsNodeJs: false } };
    expect(validateScheme(misspelt)).toBe(false);
    expect(validateScheme({ ...config, nsis: { ...config.nsis, perUser: true } })).toBe(false);
  });
});

describe('identity and layout', () => {
  it('names the app and its folders', () => {
    expect(config.appId).toBe('com.reportdesk.app');
    expect(config.productName).toBe('ReportDesk');
    expect(config.directories).toEqual({ output: 'release', buildResources: 'build' });
  });

  it('registers the reportdesk:// protocol', () => {
    expect(config.protocols).toEqual([{ name: 'ReportDesk', schemes: ['reportdesk'] }]);
  });
});

describe('targets', () => {
  it('builds a per-user NSIS installer for Windows', () => {
    expect(config.win.target.map((t) => t.target)).toEqual(['nsis']);
    expect(config.nsis.perMachine).toBe(false);
    expect(typeof config.nsis.oneClick).toBe('boolean');
  });

  it('builds dmg and zip for Apple silicon and Intel, hardened', () => {
    expect(config.mac.target.map((t) => t.target).sort()).toEqual(['dmg', 'zip']);
    for (const target of config.mac.target) expect([...target.arch].sort()).toEqual(['arm64', 'x64']);
    expect(config.mac.category).toBe('public.app-category.productivity');
    expect(config.mac.hardenedRuntime).toBe(true);
  });

  it('builds an AppImage and a deb that depends on libsecret for the keychain', () => {
    expect([...config.linux.target].sort()).toEqual(['AppImage', 'deb']);
    expect(['Office', 'Utility']).toContain(config.linux.category);
    expect(config.deb.depends).toContain('libsecret-1-0');
  });
});

describe('fuses', () => {
  it('sets every fuse SECURITY.md promises, as it promises', () => {
    // The document is the promise; the test reads it rather than repeating the YAML.
    const row = readProjectFile('docs/SECURITY.md')
      .split('\n')
      .find((line) => line.startsWith('| Fuses'));
    const promised = [...(row ?? '').matchAll(/`(\w+): (true|false)`/g)].map(
      ([, name, value]) => [name, value === 'true'] as const,
    );
    expect(promised.length).toBeGreaterThanOrEqual(7);
    for (const [name, value] of promised) expect(config.electronFuses[name], name).toBe(value);
  });

  it("re-signs a macOS build ad hoc after the flip, as electron-builder's own fuse step reads it", async () => {
    // Without it an unsigned build's broken signature stops it on Apple Silicon.
    const { PlatformPackager } = await import('app-builder-lib');
    const generate = (
      PlatformPackager.prototype as unknown as {
        generateFuseConfig(fuses: unknown): Promise<Record<string, unknown>>;
      }
    ).generateFuseConfig;
    for (const file of ['electron-builder.yml', 'electron-builder.config.ts', 'electron-builder.e2e.yml']) {
      const merged = await getConfig(projectDir, file, null);
      await expect(generate.call({}, merged.electronFuses)).resolves.toMatchObject({
        resetAdHocDarwinSignature: true,
      });
    }
    await expect(generate.call({}, { runAsNode: false })).resolves.not.toMatchObject({
      resetAdHocDarwinSignature: true,
    });
  });

  it('keeps signing identities and notarisation credentials out of the configuration', () => {
    // electron-builder takes them from CSC_LINK / WIN_CSC_LINK / APPLE_API_KEY… at build time.
    const text = readProjectFile('electron-builder.yml');
    for (const key of ['identity', 'certificateFile', 'certificatePassword', 'cscLink', 'cscKeyPassword']) {
      expect(text).not.toMatch(new RegExp(`^\\s*${key}:`, 'm'));
    }
    expect(config.mac).not.toHaveProperty('notarize');
  });

  describe('the e2e build, as electron-builder merges it', () => {
    let merged: Configuration;
    let release: Configuration;
    beforeAll(async () => {
      merged = await getConfig(projectDir, 'electron-builder.e2e.yml', null);
      // The release: electron-builder.yml with the languages (tests/unit/packaging/languages.test.ts).
      release = await getConfig(projectDir, 'electron-builder.config.ts', null);
    });

    it('passes the validation electron-builder runs before it packages', async () => {
      await expect(validateConfiguration(release, new DebugLogger(false))).resolves.toBeUndefined();
      await expect(validateConfiguration(merged, new DebugLogger(false))).resolves.toBeUndefined();
    });

    it('extends the release configuration', () => {
      expect(e2eConfig.extends).toBe('electron-builder.config.ts');
      expect(merged.appId).toBe('com.reportdesk.app');
    });

    it('differs only in honouring --inspect', () => {
      expect(merged.electronFuses).toEqual({ ...config.electronFuses, enableNodeCliInspectArguments: true });
      const { electronFuses: _e2eFuses, extends: _e2eExtends, ...restOfE2e } = merged;
      const { electronFuses: _fuses, extends: _extends, ...restOfRelease } = release;
      expect(restOfE2e).toEqual(restOfRelease);
    });
  });
});

describe('what goes into the package', () => {
  const included = matcher(config.files);
  // electron-builder applies only the negations of `files` to node_modules, after "**/*".
  const includedModuleFile = matcher(['**/*', ...config.files.filter((pattern) => pattern.startsWith('!'))]);

  it('takes the built main process, preload and renderer, and package.json', () => {
    for (const path of [
      'package.json',
      'dist/electron/main.cjs',
      'dist/electron/preload.cjs',
      'dist/renderer/index.html',
      'dist/renderer/assets/index-3f2a1b.js',
      'dist/renderer/assets/index-3f2a1b.css',
    ]) {
      expect(included(path), path).toBe(true);
    }
  });

  it('leaves out tests, sources, source maps, the preview bridge, the CLI, docs and .tmp', () => {
    for (const path of [
      'dist/renderer/assets/index-3f2a1b.js.map',
      'dist/electron/main.cjs.map',
      'dist/cli/report-desk.mjs',
      'dist/preview/run.js',
      'electron/preview/server.ts',
      'electron/main/main.ts',
      'electron/core/services.ts',
      'shared/contract.ts',
      'renderer/src/main.tsx',
      'tests/unit/packaging/electronBuilder.test.ts',
      'scripts/build-node.mjs',
      'bin/report-desk.mjs',
      'docs/architecture.md',
      'README.md',
      '.tmp/preview-data/cache.sqlite',
      'tsconfig.json',
    ]) {
      expect(included(path), path).toBe(false);
    }
  });

  it('keeps what the native modules need at run time', () => {
    for (const path of [
      'node_modules/keytar/build/Release/keytar.node',
      'node_modules/keytar/lib/keytar.js',
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'node_modules/better-sqlite3/lib/index.js',
    ]) {
      expect(includedModuleFile(path), path).toBe(true);
    }
  });

  it('is an asar archive with both native modules unpacked', () => {
    expect(config.asar).toBe(true);
    const unpacked = matcher(config.asarUnpack);
    expect(unpacked('node_modules/keytar/build/Release/keytar.node')).toBe(true);
    expect(unpacked('node_modules/keytar/lib/keytar.js')).toBe(true);
    expect(unpacked('node_modules/better-sqlite3/build/Release/better_sqlite3.node')).toBe(true);
    expect(unpacked('node_modules/better-sqlite3/lib/database.js')).toBe(true);
    expect(unpacked('node_modules/some-addon/build/Release/addon.node')).toBe(true);
    expect(unpacked('dist/electron/main.cjs')).toBe(false);
    expect(unpacked('node_modules/zod/index.js')).toBe(false);
  });

  it('rebuilds the native modules for Electron at package time', () => {
    expect(config.npmRebuild).toBe(true);
  });
});

describe('the update feed', () => {
  /** What electron-builder writes into resources/app-update.yml (PublishManager, onAfterPack). */
  const appUpdateYml = (publish: object) =>
    serializeToYaml({ ...publish, updaterCacheDirName: 'report-desk-updater' });
  const feedOf = (yaml: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'reportdesk-app-update-'));
    try {
      writeFileSync(join(dir, 'app-update.yml'), yaml);
      return readFeedUrl(join(dir, 'app-update.yml'), silentLogger);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('is one generic https feed, which the app reads from app-update.yml', () => {
    expect(config.publish.provider).toBe('generic');
    expect(new URL(config.publish.url).protocol).toBe('https:');
    expect(Object.keys(config.publish).sort()).toEqual(['provider', 'url']);
    expect(feedOf(appUpdateYml(config.publish))).toBe(new URL(config.publish.url).href);
  });

  it('can be pointed elsewhere at build time (-c.publish.url=…), as electron-builder merges it', async () => {
    const url = 'https://updates.example.org/reportdesk';
    const merged = await getConfig(projectDir, 'electron-builder.yml', {
      publish: { provider: 'generic', url },
    });
    expect(merged.publish).toEqual({ provider: 'generic', url });
    await expect(validateConfiguration(merged, new DebugLogger(false))).resolves.toBeUndefined();
    expect(feedOf(appUpdateYml(merged.publish as object))).toBe(url);
  });

  it('the app refuses a build whose feed is not generic https (the schema would let them through)', () => {
    for (const publish of [
      { provider: 'generic', url: 'http://updates.example.org/' },
      { provider: 'github', owner: 'reportdesk', repo: 'report-desk' },
      { provider: 's3', bucket: 'reportdesk' },
    ]) {
      expect(validateScheme({ ...config, publish }), JSON.stringify(publish)).toBe(true);
      expect(feedOf(appUpdateYml(publish)), JSON.stringify(publish)).toBeNull();
    }
  });

  it('writes every channel file for a stable release, so beta users move on to it', () => {
    expect(config.generateUpdatesFilesForAllChannels).toBe(true);
  });
});

describe('package.json', () => {
  it('points main at the file scripts/build-node.mjs writes, which the package includes', () => {
    // buildNode() writes each outfile under its outDir, which is dist for the app.
    const outfiles = [
      ...readProjectFile('scripts/build-node.mjs').matchAll(/outfile:\s*join\(outDir, '([^']+)'\)/g),
    ].map((m) => `dist/${m[1]}`);
    expect(outfiles).toContain(packageJson.main);
    expect(packageJson.main).toBe('dist/electron/main.cjs');
    expect(matcher(config.files)(packageJson.main)).toBe(true);
  });

  it('keeps Electron and electron-builder out of the runtime dependencies', () => {
    for (const name of ['electron', 'electron-builder']) {
      expect(packageJson.devDependencies, name).toHaveProperty([name]);
      expect(packageJson.dependencies, name).not.toHaveProperty([name]);
    }
  });

  it('ships the native modules as runtime dependencies', () => {
    for (const name of ['keytar', 'better-sqlite3']) {
      expect(packageJson.dependencies, name).toHaveProperty([name]);
      expect(packageJson.devDependencies, name).not.toHaveProperty([name]);
    }
  });
});

describe('the icon', () => {
  it('is a square PNG of at least 512×512 rendered from the committed SVG', () => {
    expect(config.icon).toBe('build/icon.png');
    expect(existsSync(join(projectDir, 'build/icon.svg'))).toBe(true);
    const png = readFileSync(join(projectDir, config.icon));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // The first chunk is IHDR: length (4), type (4), then width and height as big-endian uint32.
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect(width).toBeGreaterThanOrEqual(512);
    expect(height).toBe(width);
  });
});
