/**
 * The app's words in a language, as the page shows them, for the language specs to find buttons
 * and headings by: the catalogues compiled as the build compiles them (scripts/catalogues.mjs),
 * a pseudo-language made from English, user data isolated in a right-to-left language — the
 * main process's words (electron/core/desktop/words.ts), which are the page's.
 */
import { existsSync } from 'node:fs';
import { catalogueFile, catalogueLanguages, compileCatalogue } from '../../scripts/catalogues.mjs';
import { wordsFor } from '../../electron/core/desktop/words';
import type { Language, ShippedLanguage } from '../../shared/i18n/languages';
import type { Words } from '../../shared/i18n/messages';

/** Whether a shipped language's translation is in the repository (its tests run from then on). */
export function hasCatalogue(language: ShippedLanguage): boolean {
  return existsSync(catalogueFile(language));
}

export function wordsIn(language: Language): Words {
  const catalogues = Object.fromEntries(catalogueLanguages().map((code) => [code, compileCatalogue(code)]));
  const words = wordsFor({ choice: 'system', systemLanguages: [], runLanguage: language }, catalogues);
  if (words.language !== language) throw new Error(`There is no catalogue for ${language}.`);
  return words;
}
