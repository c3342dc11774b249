/**
 * The renderer's language (issue 28): react-intl over the active language's catalogue, loaded on
 * its own (each catalogue is two chunks of its own; scripts/catalogues.mjs compiles them at build
 * time, so no ICU parser ships): the words of the first screen, asked for in boot.ts beside the
 * first screen's question — in the language this window showed last, or the browser's — and the
 * rest, loaded with the parts loaded later (lazyParts.tsx › laterWords). The first screen's
 * answer says which language the app is set to; a different one is loaded and shown in its place.
 * A change in Settings › Language arrives as `language:changed` and applies at once.
 */
import { Children, Fragment, createElement, useSyncExternalStore, type ReactNode } from 'react';
import { createIntl, createIntlCache, RawIntlProvider, useIntl, type IntlShape } from 'react-intl';
import { CATALOGUE_LANGUAGES, loadCatalogue } from 'virtual:catalogues';
import {
  activeLanguage,
  directionOf,
  isLanguage,
  isPseudoLanguage,
  matchLanguage,
  SHIPPED_LANGUAGES,
  SOURCE_LANGUAGE,
  type Language,
  type LanguageState,
  type ShippedLanguage,
} from '../../../shared/i18n/languages';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { bidiMessages, bidiValues } from '../../../shared/i18n/bidi';
import type { MessageValues, RendererMessageId, Words } from '../../../shared/i18n/messages';
import type { CompiledMessages } from '../../../shared/i18n/pseudo';

/** The shipped languages this build has a catalogue for (the others are being translated). */
export const AVAILABLE_LANGUAGES: readonly ShippedLanguage[] = SHIPPED_LANGUAGES.filter((code) =>
  CATALOGUE_LANGUAGES.includes(code),
);

/** The language this window showed last, so the next start asks for its catalogue at once. */
const LAST_LANGUAGE_KEY = 'reportdesk.language';

/** The browser's preferred languages (the preview follows them; in the app the system's come from main). */
export function browserLanguages(): readonly string[] {
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/**
 * A catalogue chunk's messages as FormatJS takes them: a message that is only text comes as the
 * text (it is most of them, and the chunk is smaller so), the others as their syntax tree.
 */
function expanded(messages: Record<string, string | MessageFormatElement[]>): CompiledMessages {
  const out: CompiledMessages = {};
  for (const [id, message] of Object.entries(messages)) {
    out[id] = typeof message === 'string' ? [{ type: 0, value: message }] : message;
  }
  return out;
}

type Part = 'first' | 'later';
const loaded = new Map<string, Promise<CompiledMessages>>();

/**
 * One part of a language's compiled messages, as its pages show them (user data isolated, see
 * shared/i18n/bidi.ts): its catalogue's, or English's made into a pseudo-language.
 */
function loadPart(language: Language, part: Part): Promise<CompiledMessages> {
  const key = `${language} ${part}`;
  let loading = loaded.get(key);
  if (!loading) {
    loading = (
      isPseudoLanguage(language)
        ? Promise.all([loadCatalogue(SOURCE_LANGUAGE, part), import('../../../shared/i18n/pseudo')]).then(
            ([english, pseudo]) => pseudo.pseudoMessages(expanded(english), language),
          )
        : loadCatalogue(language, part).then(expanded)
    ).then((messages) => bidiMessages(messages, language));
    // A failed load (a chunk that did not arrive) is asked for again next time.
    loading.catch(() => loaded.delete(key));
    loaded.set(key, loading);
  }
  return loading;
}

const cache = createIntlCache();

function intlFor(language: Language, messages: CompiledMessages): IntlShape {
  return createIntl(
    {
      locale: language,
      defaultLocale: SOURCE_LANGUAGE,
      messages,
      // A message missing from a complete catalogue is a bug: said in the console, its id on screen.
      // (A pseudo-language needs no data of its own: Intl serves en-XA as en, ar-XB as ar.)
      onError: (error) => console.error(error),
    },
    cache,
  );
}

// ---- The active language: one for the window, swapped whole when it changes ---------------------

let current: IntlShape | null = null;
/** Whether `current` holds the later part too. */
let currentHasLater = false;
/** A part loaded later has been shown: from then on every language is loaded whole. */
let laterWanted = false;
/** The language asked for last: an older load that ends later does not win. */
let wanted: Language | null = null;
const listeners = new Set<() => void>();
let firstShown: () => void = () => undefined;
/** Resolves once a language is shown: the first frame needs its words (main.tsx waits for it). */
export const languageReady = new Promise<void>((resolve) => (firstShown = resolve));

function setCurrent(intl: IntlShape, hasLater: boolean): void {
  current = intl;
  currentHasLater = hasLater;
  listeners.forEach((listener) => listener());
}

/** Shows `language`: loads its catalogue (once; the later part too once one was needed) and swaps the whole window's words. */
export async function showLanguage(language: Language): Promise<void> {
  wanted = language;
  if (current?.locale === language) return;
  const first = await loadPart(language, 'first');
  const later = laterWanted ? await loadPart(language, 'later') : null;
  if (wanted !== language) return;
  setCurrent(intlFor(language, { ...first, ...later }), later !== null);
  firstShown();
  // A part loaded later was asked for while this language loaded: its words now.
  if (laterWanted && !currentHasLater) void laterWords();
  setDocumentLanguage(language);
  try {
    localStorage.setItem(LAST_LANGUAGE_KEY, language);
  } catch {
    // Storage disabled: the next start asks for the browser's language first.
  }
}

/**
 * The words of the parts loaded later (every screen but the list, the dialogs): the shown
 * language's later part, added to its words. lazyParts.tsx loads it with each part's code.
 */
export async function laterWords(): Promise<void> {
  laterWanted = true;
  await languageReady;
  for (;;) {
    const shown = current!;
    if (currentHasLater) return;
    const later = await loadPart(shown.locale as Language, 'later');
    if (current === shown) {
      setCurrent(
        intlFor(shown.locale as Language, { ...(shown.messages as CompiledMessages), ...later }),
        true,
      );
      return;
    }
    // The language changed meanwhile: look again.
  }
}

/**
 * The page's language and writing direction (`<html lang dir>`): the whole layout mirrors with
 * `dir="rtl"` (styles.css is written in logical properties). boot.ts sets it before the first
 * frame, showLanguage with each language shown.
 */
export function setDocumentLanguage(language: Language): void {
  const root = document.documentElement;
  root.lang = language;
  root.dir = directionOf(language);
}

/** A language this window can show: a pseudo-language, or a shipped one with a catalogue. */
function showable(code: string | null | undefined): code is Language {
  return (
    isLanguage(code) && (isPseudoLanguage(code) || (AVAILABLE_LANGUAGES as readonly string[]).includes(code))
  );
}

/**
 * The language to ask for before the core has said which it is: the one the page was served in
 * (the app and the preview put the language they know in `<html data-language>`: this run's
 * --lang, the one chosen in Settings), else the one shown last, else the browser's.
 */
export function guessedLanguage(): Language {
  const served = document.documentElement.dataset.language;
  if (showable(served)) return served;
  let last: string | null = null;
  try {
    last = localStorage.getItem(LAST_LANGUAGE_KEY);
  } catch {
    // Storage disabled: the browser's, as on a first start.
  }
  if (showable(last)) return last;
  return matchLanguage(browserLanguages(), AVAILABLE_LANGUAGES);
}

/** Shows the language `state` decides (the app's setting, the system's or browser's languages, --lang). */
export function followLanguageState(state: LanguageState): Promise<void> {
  return showLanguage(activeLanguage(state, browserLanguages(), AVAILABLE_LANGUAGES));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The window's words: everything under it re-renders in the new language when it changes. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const intl = useSyncExternalStore(subscribe, () => current);
  if (!intl) throw new Error('LanguageProvider needs a language shown first (showLanguage).');
  return <RawIntlProvider value={intl}>{children}</RawIntlProvider>;
}

// ---- Words ---------------------------------------------------------------------------------------

/** Values of a message with rich parts: React nodes, and tags as functions of their children. */
export type RichValues = Record<string, ReactNode | Date | ((chunks: ReactNode[]) => ReactNode)>;

export interface RendererWords extends Words<RendererMessageId> {
  /** A message with parts that are elements (`<strong>{name}</strong>`, a link). */
  rich(id: RendererMessageId, values: RichValues): ReactNode;
  readonly intl: IntlShape;
}

/** The words of each IntlShape, made once: every component of a window shares its language's. */
const wordsByIntl = new WeakMap<IntlShape, RendererWords>();

/** Words over an IntlShape (outside React: the current window's, see `currentWords`). */
export function wordsOf(intl: IntlShape): RendererWords {
  let words = wordsByIntl.get(intl);
  if (!words) {
    words = makeWords(intl);
    wordsByIntl.set(intl, words);
  }
  return words;
}

function makeWords(intl: IntlShape): RendererWords {
  const language = intl.locale as Language;
  const words = (id: RendererMessageId, values?: MessageValues) =>
    intl.formatMessage({ id }, bidiValues(values, language));
  const rich = (id: RendererMessageId, values: RichValues): ReactNode => {
    const parts = intl.formatMessage({ id }, bidiValues(values, language) as Record<string, ReactNode>);
    return Array.isArray(parts) ? createElement(Fragment, null, ...Children.toArray(parts)) : parts;
  };
  return Object.assign(words, { rich, intl, language });
}

export function useWords(): RendererWords {
  return wordsOf(useIntl());
}

/** The window's words now, for code that runs outside a component (event handlers' sentences). */
export function currentWords(): RendererWords {
  if (!current) throw new Error('No language is shown yet.');
  return wordsOf(current);
}
