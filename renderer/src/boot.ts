/**
 * What the page runs first (main.tsx imports it before React; issue 22): the path the user left
 * off at, and the first screen's question, sent while React's code is still being evaluated.
 */
import { askFirstScreen } from './lib/firstScreenCall';
import { currentPath, navigate, parsePath, restoredPath } from './lib/router';

// Open where the user left off, unless a deep link already chose a screen.
if (currentPath() === '/') navigate(restoredPath(), { replace: true });

export const opensOnList = parsePath(currentPath()).name === 'reports';
export const firstScreenAsked = askFirstScreen(opensOnList);
