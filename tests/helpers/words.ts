/**
 * The main process's words in English from the real catalogue (compiled as the build compiles
 * it), and words in a made-up language whose every message is its own id: a label that is not
 * taken from the catalogue stays English there and shows.
 */
import { CATALOGUES } from 'virtual:catalogues/all';
import { createWords } from '../../electron/core/desktop/words';
import type { Words } from '../../shared/i18n/messages';

export const englishWords: Words = createWords('en', CATALOGUES.en);

/** Every message says "⟦id⟧" (values after it, as `name=value`), in the pseudo-language en-XA's place. */
export function idWords(): Words {
  const words = (id: string, values?: Record<string, unknown>) =>
    `⟦${id}⟧${
      values
        ? Object.entries(values)
            .map(([name, value]) => ` ${name}=${String(value)}`)
            .join('')
        : ''
    }`;
  return Object.assign(words, { language: 'en-XA' as const });
}
