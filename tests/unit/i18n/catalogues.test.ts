/**
 * The catalogues, as translators keep them (shared/i18n/catalogues/<language>.json, see
 * docs/TRANSLATING.md): the English source complete and described; every other file a shipped
 * language, complete, with the same ICU arguments and the plural categories its language needs.
 * A shipped language without its file yet is listed, not failed: its translator adds the file,
 * and from then on it must be complete.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogueFile, catalogueLanguages, readCatalogue } from '../../../scripts/catalogues.mjs';
import { SHIPPED_LANGUAGES, SOURCE_LANGUAGE } from '../../../shared/i18n/languages';
import { argumentsOf, catalogueProblems, compiled } from '../../helpers/catalogueChecks';

const english = readCatalogue(SOURCE_LANGUAGE);
const source = JSON.parse(readFileSync(catalogueFile(SOURCE_LANGUAGE), 'utf8')) as Record<
  string,
  { message: string; description?: string }
>;

describe('the English source catalogue', () => {
  it('is a flat list of ids that say where the text is', () => {
    expect(Object.keys(english).length).toBeGreaterThan(500);
    for (const id of Object.keys(english)) expect(id).toMatch(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/);
  });

  it('has valid ICU in every message', () => {
    for (const [id, text] of Object.entries(english)) expect(() => compiled(text), id).not.toThrow();
  });

  it('describes every message for its translator, naming each of its arguments', () => {
    const undescribed: string[] = [];
    for (const [id, { message, description }] of Object.entries(source)) {
      if (!description || description.trim().length < 10) {
        undescribed.push(`${id}: no description`);
        continue;
      }
      for (const name of argumentsOf(compiled(message)).keys()) {
        const named = name.startsWith('<')
          ? description.includes(name.replace(/^<|>$/g, ''))
          : description.includes(`{${name}}`);
        if (!named) undescribed.push(`${id}: the description does not say what ${name} is`);
      }
    }
    expect(undescribed).toEqual([]);
  });
});

describe('the translations', () => {
  const present = catalogueLanguages().filter((code) => code !== SOURCE_LANGUAGE);

  it('are files of shipped languages only (pseudo-languages are made, not kept)', () => {
    for (const code of present) expect(SHIPPED_LANGUAGES as readonly string[]).toContain(code);
  });

  it.each(SHIPPED_LANGUAGES.filter((code) => code !== SOURCE_LANGUAGE).map((code) => [code]))(
    '%s is complete once its file is there',
    (code) => {
      if (!existsSync(catalogueFile(code))) {
        // Not translated yet: nothing to check. The language is offered once its file exists.
        expect(present).not.toContain(code);
        return;
      }
      expect(catalogueProblems(code, english, readCatalogue(code))).toEqual([]);
    },
  );
});

describe('the catalogue check', () => {
  const sample = {
    'a.text': 'Report {id} was deleted.',
    'a.plural': '{count, plural, one {# report} other {# reports}}',
    'a.select': '{problem, select, empty {nothing} other {something}}',
    'a.rich': 'Showing <strong>{count, number}</strong>',
  };

  it('passes a complete translation, with the plural categories of its language', () => {
    expect(
      catalogueProblems('de', sample, {
        'a.text': 'Bericht {id} wurde gelöscht.',
        'a.plural': '{count, plural, one {# Bericht} other {# Berichte}}',
        'a.select': '{problem, select, empty {nichts} other {etwas}}',
        'a.rich': '<strong>{count, number}</strong> angezeigt',
      }),
    ).toEqual([]);
    expect(
      catalogueProblems('ja', sample, {
        'a.text': 'レポート {id} を削除しました。',
        'a.plural': '{count, plural, other {# 件のレポート}}',
        'a.select': '{problem, select, empty {なし} other {あり}}',
        'a.rich': '<strong>{count, number}</strong> 件を表示',
      }),
    ).toEqual([]);
  });

  it('names what is missing, extra, broken or different, and the plural categories Arabic needs', () => {
    expect(
      catalogueProblems('ar', sample, {
        'a.text': 'تم حذف التقرير {report}.',
        'a.plural': '{count, plural, one {تقرير واحد} other {# تقارير}}',
        'a.select': '{problem, select, other {شيء}}',
        'a.extra': 'زائد',
      }),
    ).toEqual([
      'a.rich: missing',
      'a.text: arguments report,text, English has id,text',
      'a.plural: {count} needs the plural categories zero, two, few, many',
      'a.select: {problem} is missing the choices empty',
      'a.extra: not in English',
    ]);
    expect(catalogueProblems('fr', { 'a.x': 'x {n, number}' }, { 'a.x': 'x {n, plural, one {#}}' })).toEqual([
      expect.stringMatching(/^a\.x: not a valid ICU message/),
    ]);
    expect(catalogueProblems('fr', { 'a.x': 'x {n, number}' }, { 'a.x': 'x {n}' })).toEqual([
      'a.x: arguments n,text, English has n,number',
    ]);
  });

  it('reads an argument used as a number and as a plural as a plural, in either order', () => {
    const english = {
      'a.x': '<strong>{count, number}</strong> {count, plural, one {report} other {reports}}',
    };
    const reordered =
      '{count, plural, one {تقرير} two {تقريران} few {تقارير} many {تقريرًا} zero {تقارير} other {تقرير}} <strong>{count, number}</strong>';
    expect(catalogueProblems('ar', english, { 'a.x': reordered })).toEqual([]);
  });

  it('asks a right-to-left language for ‹ and › as English has them and ← for →', () => {
    const english = { 'a.back': '‹ {screen}', 'a.next': 'Next ›', 'a.change': '{before} → {after}' };
    expect(
      catalogueProblems('ar', english, {
        'a.back': '‹ {screen}',
        'a.next': 'التالي ›',
        'a.change': '{before} ← {after}',
      }),
    ).toEqual([]);
    expect(
      catalogueProblems('ar', english, {
        'a.back': '› {screen}',
        'a.next': 'التالي',
        'a.change': '{before} → {after}',
      }),
    ).toEqual([
      'a.back: arrows ›, a right-to-left language writes ‹',
      'a.next: arrows none, a right-to-left language writes ›',
      'a.change: arrows →, a right-to-left language writes ←',
    ]);
    // Left to right, a translation writes its arrows as it likes.
    expect(
      catalogueProblems('de', english, {
        'a.back': '« {screen}',
        'a.next': 'Weiter',
        'a.change': '{before} → {after}',
      }),
    ).toEqual([]);
  });
});
