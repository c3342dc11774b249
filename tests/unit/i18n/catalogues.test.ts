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

describe('docs/TRANSLATING.md', () => {
  it('names exactly the plural categories Intl gives each shipped language (what the check asks for)', () => {
    const guide = readFileSync(new URL('../../../docs/TRANSLATING.md', import.meta.url), 'utf8');
    const said = new Map<string, string[]>();
    for (const [, languages, categories] of guide.matchAll(/^\s*\| ([^|]*\(`[^|]*) \| ([^|]*`[^|]*) \|$/gm))
      for (const [, code] of languages.matchAll(/\(`([a-zA-Z-]+)`\)/g))
        said.set(
          code,
          [...categories.matchAll(/`([a-z]+)`/g)].map(([, category]) => category),
        );
    for (const code of SHIPPED_LANGUAGES)
      expect(said.get(code), code).toEqual(new Intl.PluralRules(code).resolvedOptions().pluralCategories);
  });
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
      'a.text: arguments report (text), English has id (text)',
      'a.plural: {count} needs the plural categories zero, two, few, many',
      'a.select: {problem} is missing the choices empty',
      'a.extra: not in English',
    ]);
    expect(catalogueProblems('fr', { 'a.x': 'x {n, number}' }, { 'a.x': 'x {n, plural, one {#}}' })).toEqual([
      expect.stringMatching(/^a\.x: not a valid ICU message/),
    ]);
    expect(catalogueProblems('fr', { 'a.x': 'x {n, number}' }, { 'a.x': 'x {n}' })).toEqual([
      'a.x: arguments n (text), English has n (number)',
    ]);
  });

  it('compares the set of arguments with their uses, whatever order a translation puts them in', () => {
    const english = {
      'overview.matching':
        '<strong>{count, number}</strong> matching {count, plural, one {report} other {reports}}',
      'a.two': 'Fetched {fetched, number} of {total, plural, one {# report} other {# reports}}',
    };
    // Arabic puts the plural before the bold number, and the total before what was fetched.
    const reordered = {
      'overview.matching':
        '{count, plural, zero {تقارير} one {تقرير} two {تقريران} few {تقارير} many {تقريرًا} other {تقرير}} مطابقة <strong>{count, number}</strong>',
      'a.two':
        'من {total, plural, zero {# تقارير} one {# تقرير} two {# تقريرين} few {# تقارير} many {# تقريرًا} other {# تقرير}} جُلب {fetched, number}',
    };
    expect(catalogueProblems('ar', english, reordered)).toEqual([]);
    expect(
      catalogueProblems('ar', english, {
        // {count, number} left out: the bold number is gone.
        'overview.matching':
          '{count, plural, zero {تقارير} one {تقرير} two {تقريران} few {تقارير} many {تقريرًا} other {تقرير}} مطابقة <strong></strong>',
        // {fetched} renamed {done}, and {total} a plain number instead of a plural.
        'a.two': 'من {total, number} جُلب {done, number}',
      }),
    ).toEqual([
      'overview.matching: arguments <strong> (tag), count (plural), English has <strong> (tag), count (number, plural)',
      'a.two: arguments done (number), total (number), English has fetched (number), total (plural)',
    ]);
    // A number said as text is retyped, in either place.
    expect(
      catalogueProblems('de', english, {
        'overview.matching':
          '{count, plural, one {Bericht} other {Berichte}} passend: <strong>{count}</strong>',
        'a.two': '{fetched, number} von {total, plural, one {# Bericht} other {# Berichten}} geladen',
      }),
    ).toEqual([
      'overview.matching: arguments <strong> (tag), count (plural, text), English has <strong> (tag), count (number, plural)',
    ]);
  });

  it('keeps a date’s, time’s or number’s skeleton as English has it (a changed one shows other fields)', () => {
    const english = {
      'a.month': 'Month of {start, date, ::yyyyMMMM}',
      'a.free': '{mb, number, ::unit/megabyte unit-width-short .#} free',
      'a.at': 'at {when, time, short}',
    };
    expect(
      catalogueProblems('fr', english, {
        'a.month': 'Mois de {start, date, ::yyyyMMMM}',
        'a.free': '{mb, number, ::unit/megabyte unit-width-short .#} libres',
        'a.at': 'à {when, time, short}',
      }),
    ).toEqual([]);
    expect(
      catalogueProblems('fr', english, {
        // A no-break space inside the skeleton: another pattern (months became 01/11/2025).
        'a.month': 'Mois de {start, date, ::yyyy\u00a0MMMM}',
        'a.free': '{mb, number, ::unit/kilobyte unit-width-short .#} libres',
        'a.at': 'à {when, time, medium}',
      }),
    ).toEqual([
      'a.month: arguments start (date ::yyyy\u00a0MMMM), English has start (date ::yyyyMMMM)',
      'a.free: arguments mb (number ::unit/kilobyte unit-width-short .#), English has mb (number ::unit/megabyte unit-width-short .#)',
      'a.at: arguments when (time medium), English has when (time short)',
    ]);
  });

  it('asks each language for exactly its plural categories, as Intl reports them (French one, many, other)', () => {
    const english = { 'a.plural': '{count, plural, one {# report} other {# reports}}' };
    expect(
      catalogueProblems('fr', english, {
        'a.plural': '{count, plural, one {# rapport} many {# de rapports} other {# rapports}}',
      }),
    ).toEqual([]);
    expect(
      catalogueProblems('fr', english, { 'a.plural': '{count, plural, one {# rapport} other {# rapports}}' }),
    ).toEqual(['a.plural: {count} needs the plural categories many']);
    expect(
      catalogueProblems('ja', english, {
        'a.plural': '{count, plural, one {# 件} other {# 件}}',
      }),
    ).toEqual(['a.plural: {count} has plural categories ja does not: one']);
    // An exact number is any language's own choice.
    expect(
      catalogueProblems('zh-CN', english, { 'a.plural': '{count, plural, =0 {没有报告} other {# 份报告}}' }),
    ).toEqual([]);
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
