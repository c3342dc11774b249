/**
 * No file in electron/core above 400 lines (the layout rule in docs/ARCHITECTURE.md): a module
 * that grows past it is split where its parts have names of their own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const projectDir = fileURLToPath(new URL('../..', import.meta.url));
const MAX_LINES = 400;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const linesOf = (file: string) => readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;

describe('electron/core', () => {
  it(`has no file above ${MAX_LINES} lines`, () => {
    const files = sourceFiles(join(projectDir, 'electron', 'core'));
    expect(files.length).toBeGreaterThan(50);
    const tooLong = files
      .map((file) => ({ file: relative(projectDir, file), lines: linesOf(file) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
