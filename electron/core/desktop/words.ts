/**
 * The main process's words: @formatjs/intl over one catalogue's compiled messages, for the
 * application menu, dialogs and notifications (each rebuilt when the language changes).
 */
import { createIntl, createIntlCache } from '@formatjs/intl';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import {
  activeLanguage,
  isPseudoLanguage,
  SHIPPED_LANGUAGES,
  SOURCE_LANGUAGE,
  type Language,
  type LanguageState,
} from '../../../shared/i18n/languages';
import { bidiMessages, bidiValues } from '../../../shared/i18n/bidi';
import { pseudoMessages, type CompiledMessages } from '../../../shared/i18n/pseudo';
import type { MessageId, MessageValues, Words } from '../../../shared/i18n/messages';

/** Compiled messages (the build's, a pseudo-language's), or ICU text (tests). */
export type Catalogue = Record<string, MessageFormatElement[]> | Record<string, string>;

const cache = createIntlCache();

/** Words in `language` from its catalogue; a missing message (never in a complete catalogue) shows its id. */
export function createWords(
  language: Language,
  messages: Catalogue,
  onError: (error: Error) => void = () => undefined,
): Words {
  const intl = createIntl(
    {
      locale: language,
      // A pseudo-language needs no data of its own: Intl serves en-XA as en, ar-XB as ar. The
      // default locale is @formatjs's own, English, the source language.
      messages,
      onError,
    },
    cache,
  );
  // An Arabic profile name in an English notification keeps its own direction (shared/i18n/bidi.ts).
  const words = (id: MessageId, values?: MessageValues) =>
    intl.formatMessage({ id }, bidiValues(values, language));
  return Object.assign(words, { language });
}

/**
 * The words for a language state (what main shows its menu, dialogs and notifications in):
 * the language it picks among those with a catalogue, a pseudo-language made from English, user
 * data bidi-isolated as the window shows it.
 */
export function wordsFor(state: LanguageState, catalogues: Record<string, CompiledMessages>): Words {
  const available = SHIPPED_LANGUAGES.filter((code) => code in catalogues);
  // Stryker disable next-line ArrayDeclaration: [] → ["Stryker was here"] (its only direction): main always knows the system's languages (null is the preview's, which has no main process), so the list is unused; and were it used, a tag of no language matches none: English either way.
  const language = activeLanguage(state, [], available);
  const messages = isPseudoLanguage(language)
    ? pseudoMessages(catalogues[SOURCE_LANGUAGE], language)
    : catalogues[language];
  // In a right-to-left language every argument (a folder, a profile's name) is isolated.
  return createWords(language, bidiMessages(messages, language));
}
