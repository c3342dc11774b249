/** The catalogue modules scripts/catalogues.mjs makes at build time (Vite, Vitest, esbuild). */
declare module 'virtual:catalogues' {
  import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
  /** The languages with a catalogue file in shared/i18n/catalogues/, sorted. */
  export const CATALOGUE_LANGUAGES: readonly string[];
  /**
   * One part of one language's compiled messages, a chunk of its own: 'first', what the first
   * screen says; 'later', the rest. Without the main process's (menu.*, notification.*, main.*);
   * a message that is only text comes as that text.
   */
  export function loadCatalogue(
    code: string,
    part?: 'first' | 'later',
  ): Promise<Record<string, string | MessageFormatElement[]>>;
}

declare module 'virtual:catalogues/all' {
  import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
  /** Every catalogue's compiled messages, by language (the main process). */
  export const CATALOGUES: Record<string, Record<string, MessageFormatElement[]>>;
}
