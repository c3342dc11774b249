/**
 * The static security scan: Electronegativity over electron/ (main, preload and the core they
 * use). Every finding must be explained in docs/SECURITY.md's "Static scan" table (check id +
 * file), so a new finding fails this test until someone fixes it or writes down why it is fine.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

interface Finding {
  id: string;
  file: string;
  line: number;
  severity: string;
  description: string;
}

/** The (check id, file) pairs of the table under "## Static scan" in docs/SECURITY.md. */
function explainedFindings(): Set<string> {
  const doc = readFileSync(join(repoRoot, 'docs', 'SECURITY.md'), 'utf8');
  const section = doc.split(/^## /m).find((part) => part.startsWith('Static scan'));
  if (!section) throw new Error('docs/SECURITY.md has no "## Static scan" section.');
  const pairs = new Set<string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim().replace(/^`|`$/g, ''));
    if (cells.length >= 4 && /^[A-Z_]+$/.test(cells[1])) pairs.add(`${cells[1]} ${cells[2]}`);
  }
  return pairs;
}

it('finds nothing in electron/ that docs/SECURITY.md does not explain', async () => {
  const electronVersion = (
    JSON.parse(readFileSync(join(repoRoot, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'fixtures', 'electronegativityScan.ts'),
      join(repoRoot, 'electron'),
      electronVersion,
    ],
    { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
  );
  const { findings, errors } = JSON.parse(stdout) as {
    findings: Finding[];
    errors: { file: string; message: string; tolerable: boolean }[];
  };
  // A file the scanner could not parse would hide its findings.
  expect(errors.filter((error) => !error.tolerable)).toEqual([]);
  // The scanner really looked: the main process's openExternal is always worth a review.
  expect(findings.map((f) => f.id)).toContain('OPEN_EXTERNAL_JS_CHECK');

  const explained = explainedFindings();
  const unexplained = findings
    .filter((f) => !explained.has(`${f.id} ${f.file}`))
    .map((f) => `${f.id} in ${f.file}:${f.line} (${f.severity}): ${f.description}`);
  expect(unexplained).toEqual([]);
});
