/**
 * scripts/catalogues.mjs: the catalogues as the builds read them — compiled at build time (a
 * broken message fails the build, naming the file and the id), the renderer's part without the
 * main process's messages, split into the first screen's words and the rest — and no message
 * that nothing says.
 */
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  catalogueLanguages,
  catalogueModule,
  compileCatalogue,
  firstScreenIds,
  MAIN_ONLY,
  readCatalogue,
} from '../../../scripts/catalogues.mjs';
import { messageIdsIn } from '../../../scripts/sourceGraph.mjs';
import { ERROR_CODES } from '../../../shared/errorCodes';
import { sourceFiles } from '../../helpers/importGraph';

const repoRoot = resolve(import.meta.dirname, '../../..');
const english = readCatalogue('en');
const ids = new Set(Object.keys(english));
const scratch = mkdtempSync(join(tmpdir(), 'reportdesk-catalogues-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A module's default export, evaluated. */
async function exported(source: string): Promise<Record<string, unknown>> {
  const file = join(scratch, `module-${Math.random().toString(16).slice(2)}.mjs`);
  writeFileSync(file, source);
  return ((await import(file)) as { default: Record<string, unknown> }).default;
}

describe('compiling', () => {
  it('fails on a message that is not valid ICU, naming the file and the id', () => {
    const dir = join(scratch, 'broken');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'en.json'),
      JSON.stringify({ 'a.ok': { message: 'fine' }, 'a.bad': { message: '{count, plural, one {#}}' } }),
    );
    expect(() => compileCatalogue('en', dir)).toThrow(
      `${join(dir, 'en.json')}: "a.bad" is not a valid ICU message`,
    );
  });

  it('finds each language by its file', () => {
    expect(catalogueLanguages()).toContain('en');
    expect(catalogueLanguages(join(scratch, 'none'))).toEqual([]);
  });
});

describe('the renderer’s parts of a catalogue', () => {
  const first = firstScreenIds();

  it('the first screen’s words: those the modules main.tsx runs with name, errors included', () => {
    for (const id of [
      'nav.reports',
      'reports.list.select_report',
      'pages.showing_of',
      'errors.then',
      'errors.http.unreachable',
    ])
      expect(first.has(id), id).toBe(true);
    // Screens and dialogs loaded later bring their words with them.
    for (const id of ['profiles.remove_dialog.title', 'language.heading', 'export.title', 'changes.since'])
      expect(first.has(id), id).toBe(false);
  });

  it('leave out the main process’s messages, and give text-only messages as text', async () => {
    const firstPart = await exported(catalogueModule('virtual:catalogue/en')!);
    const laterPart = await exported(catalogueModule('virtual:catalogue/en/later')!);
    const renderer = Object.keys(english).filter((id) => !MAIN_ONLY.test(id));
    expect(Object.keys(firstPart).sort()).toEqual(renderer.filter((id) => first.has(id)).sort());
    expect(Object.keys(laterPart).sort()).toEqual(renderer.filter((id) => !first.has(id)).sort());
    expect(firstPart['nav.reports']).toBe('Reports');
    expect(firstPart['reports.list.select_report']).toEqual([
      { type: 0, value: 'Select report ' },
      { type: 1, value: 'id' },
    ]);
    expect(catalogueModule('virtual:catalogue/xx')).toBeNull();
    expect(catalogueModule('not-ours')).toBeNull();
  });

  it('the main process gets every catalogue whole', async () => {
    const file = join(scratch, 'all.mjs');
    writeFileSync(file, catalogueModule('virtual:catalogues/all')!);
    const { CATALOGUES } = (await import(file)) as { CATALOGUES: Record<string, Record<string, unknown>> };
    expect(Object.keys(CATALOGUES.en).sort()).toEqual([...ids].sort());
  });
});

describe('every message', () => {
  const sources = sourceFiles(['renderer', 'electron', 'shared'].map((root) => join(repoRoot, root)));

  it('is said somewhere: named in the source, or the sentence of an error code', () => {
    const named = new Set<string>();
    for (const file of sources) for (const id of messageIdsIn(file, ids)) named.add(id);
    const codes = new Set(Object.keys(ERROR_CODES).map((code) => `errors.${code}`));
    expect([...ids].filter((id) => !named.has(id) && !codes.has(id))).toEqual([]);
  });

  it('of the main process only is never named by the renderer', () => {
    const renderer = sources.filter((file) => file.startsWith(join(repoRoot, 'renderer')));
    const named = renderer.flatMap((file) => [...messageIdsIn(file, ids)]);
    expect(named.filter((id) => MAIN_ONLY.test(id))).toEqual([]);
  });
});
