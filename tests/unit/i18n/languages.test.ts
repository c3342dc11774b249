import { describe, expect, it } from 'vitest';
import {
  settledLanguage,
  activeLanguage,
  directionOf,
  isLanguage,
  isPseudoLanguage,
  languageArgument,
  matchLanguage,
  NATIVE_NAMES,
  PSEUDO_LANGUAGES,
  SHIPPED_LANGUAGES,
  systemLanguage,
  type LanguageState,
} from '../../../shared/i18n/languages';
import { parseLanguage } from '../../../electron/core/entryArgs';

describe('matchLanguage: the system’s (or the browser’s) preferences, matched to the shipped languages', () => {
  it.each([
    [['de-AT', 'en-US'], 'de'],
    [['de_DE.UTF-8'], 'de'],
    [['fr-CA'], 'fr'],
    [['es-419'], 'es'],
    [['pt-PT'], 'pt-BR'],
    [['pt-br'], 'pt-BR'],
    [['ja-JP'], 'ja'],
    [['zh-Hans-CN'], 'zh-CN'],
    [['zh-CN'], 'zh-CN'],
    [['zh-SG'], 'zh-CN'],
    [['ar-EG'], 'ar'],
    [['en-GB'], 'en'],
  ])('%j → %s', (preferred, expected) => {
    expect(matchLanguage(preferred)).toBe(expected);
  });

  it('takes the first preference a shipped language serves, and English when none does', () => {
    expect(matchLanguage(['nl-NL', 'fr-FR', 'de-DE'])).toBe('fr');
    expect(matchLanguage(['nl-NL', 'sv-SE'])).toBe('en');
    expect(matchLanguage([])).toBe('en');
  });

  it('never gives Traditional Chinese readers Simplified Chinese', () => {
    for (const tag of ['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-Hant-TW', 'zh-yue-HK']) {
      expect(matchLanguage([tag, 'ja'])).toBe('ja');
      expect(matchLanguage([tag])).toBe('en');
    }
    // Simplified characters in those regions are Simplified Chinese.
    expect(matchLanguage(['zh-Hans-TW'])).toBe('zh-CN');
    // Those regions say nothing about other languages.
    expect(matchLanguage(['en-HK', 'de'])).toBe('en');
    expect(matchLanguage(['pt-MO'])).toBe('pt-BR');
  });

  it('serves only the languages that have a catalogue', () => {
    expect(matchLanguage(['de-DE', 'fr-FR'], ['en', 'fr'])).toBe('fr');
    expect(matchLanguage(['de-DE'], ['en'])).toBe('en');
  });
});

describe('activeLanguage', () => {
  const state = (changes: Partial<LanguageState> = {}): LanguageState => ({
    choice: 'system',
    systemLanguages: ['fr-FR'],
    runLanguage: null,
    ...changes,
  });
  const all = SHIPPED_LANGUAGES;

  it('is the system’s language unless one was chosen; the browser’s stands in where the core cannot know', () => {
    expect(activeLanguage(state(), ['de'], all)).toBe('fr');
    expect(activeLanguage(state({ systemLanguages: null }), ['de-CH'], all)).toBe('de');
    expect(systemLanguage(state({ systemLanguages: null }), ['ja'], all)).toBe('ja');
  });

  it('is the chosen language, when it has a catalogue', () => {
    expect(activeLanguage(state({ choice: 'ja' }), [], all)).toBe('ja');
    expect(activeLanguage(state({ choice: 'ja' }), [], ['en', 'fr'])).toBe('fr');
  });

  it('is this run’s --lang over both, pseudo-languages included', () => {
    expect(activeLanguage(state({ choice: 'ja', runLanguage: 'en-XA' }), [], all)).toBe('en-XA');
    expect(activeLanguage(state({ runLanguage: 'ar-XB' }), [], ['en'])).toBe('ar-XB');
  });
});

describe('settledLanguage: what the page is served in before it knows the browser’s languages', () => {
  it('is this run’s --lang, else a language chosen in Settings; nothing for "System"', () => {
    expect(settledLanguage({ choice: 'de', runLanguage: 'ar-XB' })).toBe('ar-XB');
    expect(settledLanguage({ choice: 'de', runLanguage: null })).toBe('de');
    expect(settledLanguage({ choice: 'system', runLanguage: null })).toBeNull();
  });
});

describe('the languages themselves', () => {
  it('are named in themselves, and only Arabic (and its pseudo-language) reads right to left', () => {
    // Each name is the one the language gives itself (Intl's, capitalised as a menu item is;
    // Chinese by its script, as the catalogue is Simplified Chinese).
    for (const code of SHIPPED_LANGUAGES) {
      const own =
        new Intl.DisplayNames([code], { type: 'language' }).of(code === 'zh-CN' ? 'zh-Hans' : code) ?? '';
      expect(NATIVE_NAMES[code]).toBe(own.charAt(0).toLocaleUpperCase(code) + own.slice(1));
    }
    expect(Object.keys(NATIVE_NAMES)).toEqual([...SHIPPED_LANGUAGES]);
    expect(directionOf('de')).toBe('ltr');
    expect([...SHIPPED_LANGUAGES, ...PSEUDO_LANGUAGES].filter((code) => directionOf(code) === 'rtl')).toEqual(
      ['ar', 'ar-XB'],
    );
  });

  it('knows its codes, exactly as written', () => {
    expect(isLanguage('pt-BR')).toBe(true);
    expect(isLanguage('en-XA')).toBe(true);
    expect(isLanguage('pt-br')).toBe(false);
    expect(isLanguage('xx')).toBe(false);
    expect(isLanguage(undefined)).toBe(false);
    expect(isPseudoLanguage('en-XA')).toBe(true);
    expect(isPseudoLanguage('ar-XB')).toBe(true);
    expect(isPseudoLanguage('ar')).toBe(false);
  });
});

describe('--lang', () => {
  it('is read as --lang CODE or --lang=CODE among any other arguments', () => {
    expect(languageArgument(['/app', '.', '--lang', 'de'])).toBe('de');
    expect(languageArgument(['/app', '--lang=en-XA', 'reportdesk://report/1'])).toBe('en-XA');
    expect(languageArgument(['/app', '--lang'])).toBe('');
    expect(languageArgument(['/app', 'reportdesk://report/1'])).toBeUndefined();
  });

  it('takes any shipped or pseudo language in the preview, and says which when it is none', () => {
    expect(parseLanguage(undefined)).toBeNull();
    expect(parseLanguage('ar-XB')).toBe('ar-XB');
    expect(() => parseLanguage('klingon')).toThrow(
      '--lang must be one of en, de, fr, es, pt-BR, ja, zh-CN, ar, en-XA, ar-XB, not "klingon".',
    );
  });
});
