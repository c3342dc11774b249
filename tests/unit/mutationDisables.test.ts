/**
 * A `// Stryker disable` hides mutants from the score, so each one must name the mutators it
 * hides and say why they are equivalent (docs/TESTING.md lists them): never `all`, which would
 * also hide every mutant a test should kill (issue 29).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const SOURCE_DIRS = ['electron', 'shared', 'renderer', 'scripts', 'bin'];
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?)$/;

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (SOURCE_FILE.test(name)) yield path;
  }
}

/** Every Stryker comment of a text: its line, and what follows "Stryker". */
export function strykerComments(text: string): { line: number; comment: string }[] {
  return text.split('\n').flatMap((line, i) => {
    const match = /\/[/*]\s*Stryker\s+(.*)$/.exec(line);
    return match ? [{ line: i + 1, comment: match[1].replace(/\*\/\s*$/, '').trim() }] : [];
  });
}

/** What is wrong with one comment: `all`, no mutator named, or no reason; null when fine. */
export function disableProblem(comment: string): string | null {
  const match = /^(disable|restore)(?:\s+next-line)?\s+([^:\s]+)\s*(?::\s*(.*))?$/.exec(comment);
  if (!match) return 'names no mutator';
  const [, verb, mutators, reason] = match;
  if (mutators.split(',').some((name) => name.toLowerCase() === 'all')) return 'hides all mutators';
  if (verb === 'disable' && (reason ?? '').split(/\s+/).length < 4) return 'gives no reason';
  return null;
}

describe('Stryker disable comments in the source', () => {
  it('each names its mutators and says why they are equivalent: none hides all', () => {
    const problems: string[] = [];
    let seen = 0;
    for (const dir of SOURCE_DIRS) {
      for (const file of sourceFiles(join(root, dir))) {
        for (const { line, comment } of strykerComments(readFileSync(file, 'utf8'))) {
          seen += 1;
          const problem = disableProblem(comment);
          if (problem) problems.push(`${relative(root, file)}:${line} ${problem}: ${comment}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The walk found the comments there are (the check is not vacuous).
    expect(seen).toBeGreaterThan(0);
  });

  it('would notice a comment that hides all mutators, names none, or gives no reason', () => {
    const found = strykerComments(
      [
        'const a = 1; // Stryker disable next-line all: the entry point',
        '/* Stryker disable all */',
        '// Stryker disable next-line StringLiteral',
        '// Stryker disable next-line BooleanLiteral,all: only a guard, never reached here',
        '// Stryker disable next-line StringLiteral: the only direction is equivalent here',
        '// Stryker restore all',
      ].join('\n'),
    );
    expect(found.map(({ line, comment }) => [line, disableProblem(comment)])).toEqual([
      [1, 'hides all mutators'],
      [2, 'hides all mutators'],
      [3, 'gives no reason'],
      [4, 'hides all mutators'],
      [5, null],
      [6, 'hides all mutators'],
    ]);
  });
});
