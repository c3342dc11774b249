/**
 * The main process's words (electron/core/desktop/words.ts): the language a state picks among
 * the catalogues there are, a pseudo-language made from English, and what a message missing
 * from a catalogue does.
 */
import { CATALOGUES } from 'virtual:catalogues/all';
import { describe, expect, it } from 'vitest';
import { createWords, wordsFor } from '../../../electron/core/desktop/words';
import type { LanguageState } from '../../../shared/i18n/languages';
import type { MessageId } from '../../../shared/i18n/messages';

const english = CATALOGUES.en;
/** A made-up German catalogue of two messages, and English. */
const catalogues = {
  en: english,
  de: { 'menu.file': [{ type: 0, value: 'Datei' }], 'app.name': [{ type: 0, value: 'ReportDesk' }] },
} as unknown as typeof CATALOGUES;
const state = (changes: Partial<LanguageState>): LanguageState => ({
  choice: 'system',
  systemLanguages: ['de-CH', 'en'],
  runLanguage: null,
  ...changes,
});

describe('wordsFor', () => {
  it('speaks the system’s language when it has a catalogue, English otherwise', () => {
    expect(wordsFor(state({}), catalogues).language).toBe('de');
    expect(wordsFor(state({}), catalogues)('menu.file')).toBe('Datei');
    expect(wordsFor(state({ systemLanguages: ['ja-JP'] }), catalogues)('menu.file')).toBe('File');
    expect(wordsFor(state({}), { en: english }).language).toBe('en');
  });

  it('speaks the chosen language, and this run’s --lang over it', () => {
    expect(wordsFor(state({ choice: 'en' }), catalogues)('menu.file')).toBe('File');
    const pseudo = wordsFor(state({ choice: 'de', runLanguage: 'en-XA' }), catalogues);
    expect(pseudo.language).toBe('en-XA');
    expect(pseudo('menu.file')).toBe('[Ƒîļé ~~]');
    expect(wordsFor(state({ runLanguage: 'ar-XB' }), catalogues)('menu.file')).toBe(
      '\u200f\u202eFile\u202c\u200f',
    );
  });
});

describe('createWords', () => {
  it('formats ICU with the language’s plural rules', () => {
    const words = createWords('en', english);
    expect(words('notification.sync_done.body', { count: 1 })).toMatch(/^1 report is now saved/);
    expect(words('notification.sync_done.body', { count: 2 })).toMatch(/^2 reports are now saved/);
  });

  it('says a message’s id where a catalogue lacks it, and reports it', () => {
    const reported: Error[] = [];
    const words = createWords('de', { 'menu.file': 'Datei' }, (error) => reported.push(error));
    expect(words('menu.edit' as MessageId)).toBe('menu.edit');
    expect(reported).toHaveLength(1);
    // A pseudo-language needs no locale data of its own: nothing to report.
    const quiet: Error[] = [];
    for (const language of ['en-XA', 'ar-XB'] as const)
      createWords(language, { 'menu.file': 'File {n, number}' }, (error) => quiet.push(error))('menu.file', {
        n: 3,
      });
    expect(quiet).toEqual([]);
  });
});
