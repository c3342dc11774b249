/**
 * scripts/screenshots.mjs (`npm run screenshots`): which pictures the README shows and which
 * end-to-end specs take them. The run itself (a build and Chromium) is the lead's, once per round.
 */
import { existsSync, fstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  e2eSpecs,
  picturesShown,
  regenerate,
  runCommand,
  specsTaking,
} from '../../../scripts/screenshotPictures.mjs';

const projectDir = fileURLToPath(new URL('../../..', import.meta.url));
const readme = readFileSync(join(projectDir, 'README.md'), 'utf8');

describe('npm run screenshots', () => {
  it("finds the README's pictures, each once, in order", () => {
    expect(picturesShown(readme)).toEqual([
      'reports-light',
      'report-dark',
      'offline-light',
      'create-dark',
      'export-light',
      'bulk-dark',
      'overview-light',
      'changes-since-light',
      'updates-ready-dark',
      'privacy-light',
      'history-light',
      'url-timeline-dark',
      'shortcuts-dark',
      'settings-de-dark',
      'reports-ar-light',
      'repair-banner-light',
    ]);
    expect(
      picturesShown('![a](docs/screenshots/a-dark.png) ![b](other/b.png) ![a](docs/screenshots/a-dark.png)'),
    ).toEqual(['a-dark']);
  });

  it('runs only the specs that take them, and every README picture is taken by one', () => {
    expect(specsTaking(picturesShown(readme), e2eSpecs())).toEqual({
      files: [
        'tests/e2e/a11y.spec.ts',
        'tests/e2e/app.spec.ts',
        'tests/e2e/exportBulkLinks.spec.ts',
        'tests/e2e/history.spec.ts',
        'tests/e2e/keepOffline.spec.ts',
        'tests/e2e/languages.spec.ts',
        'tests/e2e/repairs.spec.ts',
        'tests/e2e/updates.spec.ts',
      ],
      untaken: [],
    });
  });

  it('every picture the README shows is in docs/screenshots (made by `npm run screenshots`)', () => {
    const missing = picturesShown(readme).filter(
      (name) => !existsSync(join(projectDir, 'docs/screenshots', `${name}.png`)),
    );
    expect(missing).toEqual([]);
  });

  it('names a picture no spec takes, matching the whole screenshot name', () => {
    const specs = [{ file: 'x.spec.ts', source: "await screenshotBoth(page, 'overview-short-window');" }];
    expect(specsTaking(['overview-light', 'overview-short-window-dark'], specs)).toEqual({
      files: ['x.spec.ts'],
      untaken: ['overview-light'],
    });
  });

  it('takes only the theme off the end of a picture’s name', () => {
    const specs = [{ file: 'y.spec.ts', source: "await screenshotBoth(page, 'panel-dark-mode');" }];
    expect(specsTaking(['panel-dark-mode-light'], specs)).toEqual({ files: ['y.spec.ts'], untaken: [] });
  });
});

describe('regenerate', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  function write(root: string, file: string, text: string): void {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }

  /** A project with a README showing two pictures of one spec's screenshot, and last round's pictures. */
  function project(
    readme = '![a](docs/screenshots/list-light.png) ![b](docs/screenshots/list-dark.png)',
  ): string {
    const root = mkdtempSync(join(tmpdir(), 'screenshots-'));
    roots.push(root);
    write(root, 'README.md', readme);
    write(root, 'tests/e2e/list.spec.ts', "await screenshotBoth(page, 'list');");
    write(root, 'tests/e2e/other.spec.ts', "await screenshotBoth(page, 'other');");
    // Not a spec: its screenshot does not count.
    write(root, 'tests/e2e/stack.ts', "await screenshotBoth(page, 'helper');");
    write(root, 'docs/screenshots/list-light.png', 'last round');
    write(root, 'docs/screenshots/list-dark.png', 'last round');
    // An earlier run's picture, which this run must not pass off as its own.
    write(root, 'test-results/screenshots/list-dark.png', 'stale');
    return root;
  }

  function capture() {
    const lines: string[] = [];
    return {
      lines,
      log: (line: string) => lines.push(`log: ${line}`),
      error: (line: string) => lines.push(`error: ${line}`),
    };
  }

  /** Stand-in for the steps: the playwright step takes the given pictures. */
  function fakeRun(root: string, takes: string[], status: Record<string, number> = {}) {
    const calls: string[][] = [];
    const run = (argv: string[], cwd: string) => {
      expect(cwd).toBe(root);
      calls.push(argv);
      if (argv[0] === './scripts/with-keyring.sh') {
        for (const picture of takes) write(root, `test-results/screenshots/${picture}.png`, `new ${picture}`);
      }
      return status[argv[0]] ?? 0;
    };
    return { calls, run };
  }

  it('builds the renderer, runs the specs that take the pictures, and copies them into docs/screenshots', () => {
    const root = project();
    const out = capture();
    const { calls, run } = fakeRun(root, ['list-light', 'list-dark', 'unshown-light']);
    const code = regenerate({ root, env: { npm_execpath: '/npm/bin/npm-cli.js' }, run, ...out });
    expect(code).toBe(0);
    expect(calls).toEqual([
      [process.execPath, '/npm/bin/npm-cli.js', 'run', '-s', 'build:renderer'],
      [
        './scripts/with-keyring.sh',
        process.execPath,
        join(root, 'node_modules/@playwright/test/cli.js'),
        'test',
        '-c',
        'tests/e2e/playwright.config.ts',
        'tests/e2e/list.spec.ts',
      ],
    ]);
    expect(readFileSync(join(root, 'docs/screenshots/list-light.png'), 'utf8')).toBe('new list-light');
    expect(readFileSync(join(root, 'docs/screenshots/list-dark.png'), 'utf8')).toBe('new list-dark');
    expect(existsSync(join(root, 'docs/screenshots/unshown-light.png'))).toBe(false);
    expect(out.lines).toEqual([
      'log: screenshots: 2 pictures copied into docs/screenshots: list-light, list-dark',
    ]);
  });

  it('runs npm from PATH when npm did not start it', () => {
    const root = project();
    const { calls, run } = fakeRun(root, ['list-light', 'list-dark']);
    expect(regenerate({ root, env: { npm_execpath: '/usr/bin/yarn' }, run, ...capture() })).toBe(0);
    expect(calls[0]).toEqual(['npm', 'run', '-s', 'build:renderer']);
  });

  it('copies nothing when a step fails, and says which', () => {
    const root = project();
    const out = capture();
    const { calls, run } = fakeRun(root, ['list-light', 'list-dark'], { './scripts/with-keyring.sh': 3 });
    expect(regenerate({ root, env: {}, run, ...out })).toBe(3);
    expect(readFileSync(join(root, 'docs/screenshots/list-light.png'), 'utf8')).toBe('last round');
    expect(calls).toHaveLength(2);
    expect(out.lines).toEqual([
      `error: screenshots: stopped, ./scripts/with-keyring.sh ${process.execPath} ${join(root, 'node_modules/@playwright/test/cli.js')} test -c tests/e2e/playwright.config.ts tests/e2e/list.spec.ts failed (exit 3); docs/screenshots is unchanged`,
    ]);
    const build = fakeRun(root, [], { npm: 1 });
    expect(regenerate({ root, env: {}, run: build.run, ...capture() })).toBe(1);
    expect(build.calls).toHaveLength(1);
  });

  it('copies nothing when the run did not take every picture (an earlier run’s do not count)', () => {
    const root = project();
    const out = capture();
    const { run } = fakeRun(root, ['list-light']);
    expect(regenerate({ root, env: {}, run, ...out })).toBe(1);
    expect(out.lines).toEqual([
      'error: screenshots: the run did not take list-dark; docs/screenshots is unchanged',
    ]);
    expect(readFileSync(join(root, 'docs/screenshots/list-light.png'), 'utf8')).toBe('last round');
    const none = capture();
    expect(regenerate({ root, env: {}, run: fakeRun(root, []).run, ...none })).toBe(1);
    expect(none.lines).toEqual([
      'error: screenshots: the run did not take list-light, list-dark; docs/screenshots is unchanged',
    ]);
  });

  it('works on a project that never ran the end-to-end specs', () => {
    const root = project();
    rmSync(join(root, 'test-results'), { recursive: true });
    const { run } = fakeRun(root, ['list-light', 'list-dark']);
    expect(regenerate({ root, env: {}, run, ...capture() })).toBe(0);
  });

  it('runs nothing when the README shows a picture no spec takes (a helper is not a spec)', () => {
    const root = project(
      '![a](docs/screenshots/list-light.png) ![c](docs/screenshots/gone-dark.png) ![h](docs/screenshots/helper-light.png)',
    );
    const out = capture();
    const { calls, run } = fakeRun(root, []);
    expect(regenerate({ root, env: {}, run, ...out })).toBe(1);
    expect(calls).toEqual([]);
    expect(out.lines).toEqual([
      'error: screenshots: no end-to-end spec takes gone-dark, helper-light (README.md shows them)',
    ]);
    expect(readFileSync(join(root, 'test-results/screenshots/list-dark.png'), 'utf8')).toBe('stale');
  });

  it('runs a step in the project folder, saying which, and answers its exit code', () => {
    const root = project();
    const lines: string[] = [];
    expect(
      runCommand(['sh', '-c', 'test "$PWD" = "$1" && exit 3', 'sh', root], root, (line) => lines.push(line)),
    ).toBe(3);
    expect(lines).toEqual([`screenshots: sh -c test "$PWD" = "$1" && exit 3 sh ${root}`]);
    expect(runCommand(['/nonexistent/tool'], root, () => {})).toBe(1);
    // With this process's terminal (stdio inherited): the step's stdout is this one's.
    const check = `process.exit(require('fs').fstatSync(1).ino === ${fstatSync(1).ino} ? 0 : 1)`;
    expect(runCommand([process.execPath, '-e', check], root, () => {})).toBe(0);
  });
});
