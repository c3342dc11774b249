/**
 * User data inside sentences keeps its own direction (shared/i18n/bidi.ts): in a right-to-left
 * language every plain argument of every message is isolated; in a left-to-right one only a
 * value that holds right-to-left text is, so English stays byte for byte what it was.
 */
import { CATALOGUES } from 'virtual:catalogues/all';
import { describe, expect, it } from 'vitest';
import { createWords, wordsFor } from '../../../electron/core/desktop/words';
import { bidiMessages, bidiValues, hasRightToLeft, isolate } from '../../../shared/i18n/bidi';
import type { LanguageState } from '../../../shared/i18n/languages';
import type { MessageId } from '../../../shared/i18n/messages';
import { compiled } from '../../helpers/catalogueChecks';

const FSI = '\u2068';
const PDI = '\u2069';
const run = (runLanguage: LanguageState['runLanguage']): LanguageState => ({
  choice: 'system',
  systemLanguages: [],
  runLanguage,
});

describe('isolate and hasRightToLeft', () => {
  it('wraps text in a first-strong isolate', () => {
    expect(isolate('https://x.example/a')).toBe(`${FSI}https://x.example/a${PDI}`);
  });

  it('finds right-to-left writing in any right-to-left script, and in the marks that make text so', () => {
    for (const text of [
      'مشروع',
      'פרויקט',
      'ܐ',
      'ހ',
      'web ب',
      '\u{10800}',
      '\u{1e900}',
      'a\u200fb',
      'a\u202eb',
    ])
      expect(hasRightToLeft(text), text).toBe(true);
    for (const text of ['web', 'https://x.example/?q=1', '12', 'Ärger', 'Ωμέγα', 'レポート', '报告', ''])
      expect(hasRightToLeft(text), text).toBe(false);
  });
});

describe('bidiMessages', () => {
  const messages = {
    plain: compiled('Delete {url}?'),
    nested: compiled(
      '{count, plural, one {# report in {project}} other {# reports in {project}}} <b>{name}</b> {kind, select, a {A} other {{other}}} {n, number}',
    ),
  };

  it('isolates every plain argument of a right-to-left language, inside plurals, selects and tags', () => {
    const words = createWords('ar', bidiMessages(messages, 'ar'));
    expect(words('plain' as MessageId, { url: 'https://x.example/' })).toBe(
      `Delete ${FSI}https://x.example/${PDI}?`,
    );
    expect(
      words('nested' as MessageId, {
        count: 2,
        project: 'web',
        b: ((chunks: string[]) => `*${chunks.join('')}*`) as unknown as string,
        name: 'Alpha',
        kind: 'a',
        other: 'x',
        n: 3,
      }),
    ).toBe(`2 reports in ${FSI}web${PDI} *${FSI}Alpha${PDI}* A 3`);
  });

  it('keeps a select’s key, a plural’s number and a number as they are (the key still chooses)', () => {
    const words = createWords('ar-XB', bidiMessages(messages, 'ar-XB'));
    const tag = ((chunks: string[]) => chunks.join('')) as unknown as string;
    const values = { count: 1, project: 'p', b: tag, name: 'n', kind: 'zzz', other: 'o', n: 4 };
    const text = words('nested' as MessageId, values);
    expect(text).toContain(`${FSI}o${PDI}`);
    expect(text).not.toContain(`${FSI}1`);
    expect(text).not.toContain(`${FSI}4`);
  });

  it('leaves a left-to-right language’s messages as they are', () => {
    expect(bidiMessages(messages, 'de')).toBe(messages);
    expect(bidiMessages(messages, 'en-XA')).toBe(messages);
  });
});

describe('bidiValues', () => {
  it('in a left-to-right language isolates a value with right-to-left text, and only that', () => {
    const date = new Date(0);
    const values = { name: 'مشروع 2', url: 'https://x.example/', count: 3, when: date, key: 'result' };
    expect(bidiValues(values, 'en')).toEqual({ ...values, name: `${FSI}مشروع 2${PDI}` });
    const ascii = { url: 'https://x.example/', count: 3 };
    expect(bidiValues(ascii, 'de')).toBe(ascii);
    expect(bidiValues(undefined, 'de')).toBeUndefined();
  });

  it('leaves a value that is isolated already (what the service said) as it is, and only such a value', () => {
    const said = { said: `${FSI}بوابة سيئة${PDI}` };
    expect(bidiValues(said, 'en')).toBe(said);
    // An isolate at one end only, or inside, is not the whole value isolated.
    for (const value of [`${FSI}بوابة سيئة`, `بوابة ${FSI}سيئة${PDI}`, `بوابة سيئة${PDI}`])
      expect(bidiValues({ value }, 'en')).toEqual({ value: `${FSI}${value}${PDI}` });
  });

  it('never touches what is not text: a tag’s function, a number, a date', () => {
    const tag = (chunks: string[]) => `عمل ${chunks.join('')}`;
    const values = { tag, count: 3, when: new Date(0) };
    expect(bidiValues(values, 'en')).toBe(values);
  });

  it('leaves a right-to-left language’s values to its messages', () => {
    const values = { name: 'مشروع' };
    expect(bidiValues(values, 'ar')).toBe(values);
  });
});

describe('the main process’s words', () => {
  it('isolate a profile’s name in a right-to-left notification, and an Arabic one in English', () => {
    const catalogues = { en: CATALOGUES.en };
    const mirrored = wordsFor(run('ar-XB'), catalogues)('notification.bad_news.title', { count: 1 });
    expect(mirrored).not.toContain(FSI);
    const body = (language: 'ar-XB' | 'en', profile: string) =>
      wordsFor(run(language === 'en' ? null : language), catalogues)('notification.bad_news.body', {
        count: 2,
        profile,
      });
    expect(body('ar-XB', 'Work')).toContain(`${FSI}Work${PDI}`);
    expect(body('en', 'Work')).not.toContain(FSI);
    expect(body('en', 'عمل')).toContain(`${FSI}عمل${PDI}`);
  });
});
