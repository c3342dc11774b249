/**
 * What the page runs first (main.tsx imports it before React; issue 22): the path the user left
 * off at, the first screen's question, and the language's catalogue (issue 28), asked for side by
 * side while React's code is still being evaluated.
 */
import { askFirstScreen } from './lib/firstScreenCall';
import { guessedLanguage, setDocumentLanguage, showLanguage } from './lib/i18n';
import { currentPath, navigate, parsePath, restoredPath } from './lib/router';

// Open where the user left off, unless a deep link already chose a screen.
if (currentPath() === '/') navigate(restoredPath(), { replace: true });

export const opensOnList = parsePath(currentPath()).name === 'reports';
export const firstScreenAsked = askFirstScreen(opensOnList);
// Not after the first answer: the catalogue of the language the page was served in (or showed
// last) loads meanwhile (the answer says whether the app is set to another one, see
// lib/firstScreen.ts). Its direction now, so that no frame is drawn left to right in Arabic.
const firstLanguage = guessedLanguage();
setDocumentLanguage(firstLanguage);
void showLanguage(firstLanguage).catch(() => showLanguage('en'));
