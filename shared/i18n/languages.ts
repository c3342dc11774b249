/**
 * The languages ReportDesk speaks, in one place: which are shipped (each with a catalogue in
 * ./catalogues/<code>.json once it is translated), the two pseudo-languages for testing (never
 * offered to a user), and how a list of preferred languages (the system's, the browser's) picks
 * one of them. Environment-free: the renderer, the main process and the tests read it alike.
 */

/** The source language: its catalogue is the one every other is translated from. */
export const SOURCE_LANGUAGE = 'en';

/** Every language a release ships: each is complete (every key, the same ICU arguments as English). */
export const SHIPPED_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ar'] as const;
export type ShippedLanguage = (typeof SHIPPED_LANGUAGES)[number];

/**
 * Generated from the English catalogue when loaded, for testing only: `en-XA` accented and
 * longer, `ar-XB` English written right to left. Reached with `--lang CODE`, never offered.
 */
export const PSEUDO_LANGUAGES = ['en-XA', 'ar-XB'] as const;
export type PseudoLanguage = (typeof PSEUDO_LANGUAGES)[number];

export type Language = ShippedLanguage | PseudoLanguage;

/** What the user chose in Settings › Language: a language, or the system's. */
export type LanguageChoice = 'system' | ShippedLanguage;

/** Each language named in itself, as Settings › Language offers it. */
export const NATIVE_NAMES: Record<ShippedLanguage, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
  'zh-CN': '简体中文',
  ar: 'العربية',
};

const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set<Language>(['ar', 'ar-XB']);

export function isShippedLanguage(code: unknown): code is ShippedLanguage {
  return (SHIPPED_LANGUAGES as readonly unknown[]).includes(code);
}

export function isLanguage(code: unknown): code is Language {
  return isShippedLanguage(code) || (PSEUDO_LANGUAGES as readonly unknown[]).includes(code);
}

export function isPseudoLanguage(code: Language): code is PseudoLanguage {
  return (PSEUDO_LANGUAGES as readonly string[]).includes(code);
}

/** The writing direction of a language's pages. */
export function directionOf(language: Language): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

/** Regions whose Chinese is written in traditional characters. */
const TRADITIONAL_REGIONS = ['tw', 'hk', 'mo'];

/**
 * The one of `available` that `tag` reads best, or null: the one of the same language (the
 * shipped languages are one per language: `de-AT` is served by `de`, `pt-PT` by `pt-BR`), except
 * that Chinese in traditional characters (`zh-TW`, `zh-Hant`) is not served by Simplified Chinese.
 */
function matchOne(tag: string, available: readonly ShippedLanguage[]): ShippedLanguage | null {
  // Tags as the systems give them: `de-AT`, `de_AT.UTF-8`, `zh-Hant-TW`.
  const [language, ...rest] = tag.replace(/_/g, '-').toLowerCase().split('-');
  const traditional =
    rest.includes('hant') ||
    (!rest.includes('hans') && rest.some((part) => TRADITIONAL_REGIONS.includes(part)));
  if (language === 'zh' && traditional) return null;
  return available.find((code) => code.split('-')[0] === language) ?? null;
}

/**
 * The first of `preferred` (most preferred first: `app.getPreferredSystemLanguages()`,
 * `navigator.languages`) that one of `available` serves — `de-AT` is served by `de`, `pt-PT` by
 * `pt-BR`, Traditional Chinese by none — else English.
 */
export function matchLanguage(
  preferred: readonly string[],
  available: readonly ShippedLanguage[] = SHIPPED_LANGUAGES,
): ShippedLanguage {
  for (const tag of preferred) {
    const found = matchOne(tag, available);
    if (found) return found;
  }
  return SOURCE_LANGUAGE;
}

/** What decides the language: the choice kept in the data folder, the system's languages, this run's `--lang`. */
export interface LanguageState {
  choice: LanguageChoice;
  /** The system's preferred languages, most preferred first; null where the core cannot know them (the preview: the browser's count). */
  systemLanguages: string[] | null;
  /** `--lang CODE` given to this run: wins until a language is chosen in Settings. */
  runLanguage: Language | null;
}

/**
 * The language to show. `fallbackPreferred` stands in for the system's languages where the core
 * does not know them (the browser preview passes `navigator.languages`); `available` are the
 * shipped languages that have a catalogue.
 */
export function activeLanguage(
  state: LanguageState,
  fallbackPreferred: readonly string[],
  available: readonly ShippedLanguage[],
): Language {
  if (state.runLanguage !== null) return state.runLanguage;
  if ((available as readonly string[]).includes(state.choice)) return state.choice as ShippedLanguage;
  return systemLanguage(state, fallbackPreferred, available);
}

/** The language a state settles whatever the system's languages: this run's `--lang`, else a choice; null for "System". */
export function settledLanguage(state: Pick<LanguageState, 'choice' | 'runLanguage'>): Language | null {
  return state.runLanguage ?? (state.choice === 'system' ? null : state.choice);
}

/** The language "System" means here: the one the system's (or the browser's) preferences pick. */
export function systemLanguage(
  state: Pick<LanguageState, 'systemLanguages'>,
  fallbackPreferred: readonly string[],
  available: readonly ShippedLanguage[],
): ShippedLanguage {
  return matchLanguage(state.systemLanguages ?? fallbackPreferred, available);
}

/** `--lang CODE` or `--lang=CODE` among a process's arguments: the code, undefined when absent. */
export function languageArgument(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--lang') return argv[i + 1] ?? '';
    if (argv[i].startsWith('--lang=')) return argv[i].slice('--lang='.length);
  }
  return undefined;
}
