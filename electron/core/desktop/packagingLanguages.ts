/**
 * The shipped languages as the installers name them (issue 28), for electron-builder.config.ts:
 * the Chromium locales the package keeps (`electronLanguages`), the languages the Windows
 * installer speaks (NSIS), and the Linux desktop entry's name and comment in each language that
 * has a catalogue. One list decides them all: shared/i18n/languages.ts › SHIPPED_LANGUAGES.
 */
import { SHIPPED_LANGUAGES, type ShippedLanguage } from '../../../shared/i18n/languages';
import type { CompiledMessages } from '../../../shared/i18n/pseudo';
import { createWords } from './words';

/** Chromium's locale for each (its `locales/<name>.pak`; English is en-US). */
const CHROMIUM_LOCALES: Record<ShippedLanguage, string> = {
  en: 'en-US',
  de: 'de',
  fr: 'fr',
  es: 'es',
  'pt-BR': 'pt-BR',
  ja: 'ja',
  'zh-CN': 'zh-CN',
  ar: 'ar',
};

/** The NSIS installer's language for each (electron-builder's `installerLanguages`, language_REGION). */
const INSTALLER_LANGUAGES: Record<ShippedLanguage, string> = {
  en: 'en_US',
  de: 'de_DE',
  fr: 'fr_FR',
  es: 'es_ES',
  'pt-BR': 'pt_BR',
  ja: 'ja_JP',
  'zh-CN': 'zh_CN',
  ar: 'ar_SA',
};

/** The locales Chromium keeps in the package: the shipped languages' only. */
export function electronLanguages(): string[] {
  return SHIPPED_LANGUAGES.map((code) => CHROMIUM_LOCALES[code]);
}

/** The languages the Windows installer speaks (it picks the system's among them). */
export function installerLanguages(): string[] {
  return SHIPPED_LANGUAGES.map((code) => INSTALLER_LANGUAGES[code]);
}

/**
 * A value of a desktop entry's string key, escaped as the Desktop Entry Specification says
 * (a backslash, a line break or a tab would otherwise end the value or start another key).
 */
export function desktopString(value: string): string {
  return value.replace(
    /[\\\n\r\t]/g,
    (sign) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[sign]!,
  );
}

/** The desktop entry's locale for a language (`Name[pt_BR]`): language_COUNTRY. */
const desktopLocale = (code: ShippedLanguage) => code.replace('-', '_');

export interface DesktopWords {
  /** The English comment (linux.description: electron-builder writes it as `Comment`). */
  comment: string;
  /** `Name[xx]` and `Comment[xx]` for each other shipped language that has a catalogue. */
  entry: Record<string, string>;
}

/**
 * The desktop entry's words, from the catalogues (`app.name`, `main.desktop_entry.comment`). A
 * catalogue without them stops the build, naming it: a package never shows a message's id.
 */
export function desktopWords(catalogues: Record<string, CompiledMessages>): DesktopWords {
  const wordsIn = (code: ShippedLanguage) =>
    createWords(code, catalogues[code], (error) => {
      throw new Error(`The ${code} catalogue cannot word the desktop entry: ${error.message}`);
    });
  const entry: Record<string, string> = {};
  for (const code of SHIPPED_LANGUAGES) {
    if (code === 'en' || !(code in catalogues)) continue;
    const words = wordsIn(code);
    entry[`Name[${desktopLocale(code)}]`] = desktopString(words('app.name'));
    entry[`Comment[${desktopLocale(code)}]`] = desktopString(words('main.desktop_entry.comment'));
  }
  return { comment: wordsIn('en')('main.desktop_entry.comment'), entry };
}
