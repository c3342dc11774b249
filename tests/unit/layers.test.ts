/**
 * The layers, enforced: each lint rule fails on its deliberate-violation fixture (and only
 * with that rule), the real source passes, and nothing under the source folders imports in a
 * cycle. The fixtures are linted with ESLint's Node API as if they sat at the path named here.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { findImportCycles, sourceFiles } from '../helpers/importGraph';

const repoRoot = resolve(import.meta.dirname, '../..');
const fixtures = join(repoRoot, 'tests/lint-fixtures');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

async function lintFixtureAs(fixture: string, pretendPath: string) {
  const [result] = await eslint.lintText(readFileSync(join(fixtures, fixture), 'utf8'), {
    filePath: join(repoRoot, pretendPath),
  });
  return result.messages.map((message) => ({ rule: message.ruleId, message: message.message }));
}

describe('lint layer rules', () => {
  const violations = [
    ['core-imports-cli.ts', 'electron/core/fixture.ts', 'no-restricted-imports', /imports none/],
    ['core-imports-preview.ts', 'electron/core/fixture.ts', 'no-restricted-imports', /imports none/],
    [
      'core-imports-updates-cli.ts',
      'electron/core/updates/fixture.ts',
      'no-restricted-imports',
      /imports none/,
    ],
    [
      'core-imports-demo-service.ts',
      'electron/core/gateway/fixture.ts',
      'no-restricted-imports',
      /imports none/,
    ],
    ['core-imports-electron.ts', 'electron/core/fixture.ts', 'no-restricted-imports', /import electron/],
    [
      'renderer-imports-contract-at-run-time.ts',
      'renderer/src/lib/fixture.ts',
      '@typescript-eslint/no-restricted-imports',
      /as types only/,
    ],
    [
      'renderer-imports-report-at-run-time.ts',
      'renderer/src/screens/fixture.ts',
      '@typescript-eslint/no-restricted-imports',
      /as types only/,
    ],
  ] as const;

  it.each([
    ...violations,
    [
      'renderer-jsx-text.tsx',
      'renderer/src/components/Fixture.tsx',
      'reportdesk/no-untranslated-text',
      /"'Save'"/,
    ],
    [
      'renderer-read-attribute.tsx',
      'renderer/src/components/Fixture.tsx',
      'reportdesk/no-untranslated-text',
      /aria-label attribute is read by people/,
    ],
    [
      'renderer-component-label.tsx',
      'renderer/src/screens/Fixture.tsx',
      'reportdesk/no-untranslated-text',
      /confirmLabel attribute/,
    ],
    [
      'main-menu-label.ts',
      'electron/main/fixture.ts',
      'reportdesk/no-untranslated-text',
      /main process shows \(label\)/,
    ],
    [
      'main-dialog-text.ts',
      'electron/core/desktop/fixture.ts',
      'reportdesk/no-untranslated-text',
      /main process shows \(showErrorBox\)/,
    ],
  ] as const)('%s fails as %s with %s', async (fixture, pretendPath, rule, wording) => {
    const messages = await lintFixtureAs(fixture, pretendPath);
    expect(messages).toHaveLength(1);
    expect(messages[0].rule).toBe(rule);
    expect(messages[0].message).toMatch(wording);
  });

  it('lets the renderer import the zod-bearing modules as types', async () => {
    expect(await lintFixtureAs('renderer-type-imports-contract.ts', 'renderer/src/lib/fixture.ts')).toEqual(
      [],
    );
  });

  it('lets the renderer say words from the catalogue, and signs that are no words', async () => {
    expect(
      await lintFixtureAs('renderer-words-from-catalogue.tsx', 'renderer/src/components/Fixture.tsx'),
    ).toEqual([]);
  });

  it('holds the main process’s menus, dialogs and notifications to the catalogue, not its other code', async () => {
    // The same label elsewhere (a CLI table, a test) is no menu.
    expect(await lintFixtureAs('main-menu-label.ts', 'electron/cli/fixture.ts')).toEqual([]);
  });

  it('lets the front ends import the demo service the core may not', async () => {
    // The same import is fine one layer up: the CLI, preview and main are where it belongs.
    expect(await lintFixtureAs('core-imports-demo-service.ts', 'electron/main/sub/fixture.ts')).toEqual([]);
  });

  it('keeps the fixtures out of the normal lint run', async () => {
    expect(await eslint.isPathIgnored(join(fixtures, 'core-imports-cli.ts'))).toBe(true);
  });
});

describe('import cycles', () => {
  it('finds a deliberate cycle, type-only edge included', () => {
    const cycles = findImportCycles(sourceFiles([join(fixtures, 'cycle')]), fixtures);
    expect(cycles).toEqual([['cycle/first.ts', 'cycle/second.ts', 'cycle/first.ts']]);
  });

  it('finds one that goes through a module loaded later (import())', () => {
    const cycles = findImportCycles(sourceFiles([join(fixtures, 'lazy-cycle')]), fixtures);
    expect(cycles).toEqual([['lazy-cycle/screen.ts', 'lazy-cycle/shell.ts', 'lazy-cycle/screen.ts']]);
  });

  it('finds none in the source', () => {
    const roots = ['electron', 'shared', 'renderer', 'scripts', 'tests'].map((root) => join(repoRoot, root));
    const files = sourceFiles(roots).filter((file) => !file.startsWith(fixtures));
    expect(files.length).toBeGreaterThan(100);
    expect(findImportCycles(files, repoRoot)).toEqual([]);
  });
});
