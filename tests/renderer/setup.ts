/** Every renderer test renders in English, the source catalogue, with every part of it loaded. */
import { laterWords, showLanguage } from '../../renderer/src/lib/i18n';

await showLanguage('en');
await laterWords();
