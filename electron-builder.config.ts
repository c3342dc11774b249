/**
 * The release configuration `npm run dist` packages with: electron-builder.yml, and what comes
 * from the languages (issue 28), computed from the one list of shipped languages
 * (shared/i18n/languages.ts) and their catalogues at build time, so a new translation reaches the
 * installers by itself:
 *  - `electronLanguages`: Chromium's locales for the shipped languages only (the rest are left out
 *    of the package);
 *  - the NSIS installer in the same languages, picking the system's;
 *  - the Linux desktop entry (deb, AppImage) named and described in each of them.
 * Checked by tests/unit/packaging/languages.test.ts through electron-builder's own code.
 */
import { catalogueLanguages, compileCatalogue } from './scripts/catalogues.mjs';
import {
  desktopWords,
  electronLanguages,
  installerLanguages,
} from './electron/core/desktop/packagingLanguages';

/** electron-builder calls it when it loads the configuration: the catalogues as they are then. */
export default function releaseConfiguration() {
  const catalogues = Object.fromEntries(catalogueLanguages().map((code) => [code, compileCatalogue(code)]));
  const desktop = desktopWords(catalogues);
  return {
    extends: 'electron-builder.yml',
    electronLanguages: electronLanguages(),
    nsis: {
      installerLanguages: installerLanguages(),
      // The system's language is picked by itself (no language page in a one-click installer).
      multiLanguageInstaller: true,
    },
    linux: {
      // electron-builder writes it as the entry's Comment, in English.
      description: desktop.comment,
      desktop: { entry: desktop.entry },
    },
  };
}
