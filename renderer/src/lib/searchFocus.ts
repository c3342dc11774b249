/**
 * The "focus search" app command (Ctrl/Cmd+F, the menu): the cursor in the reports list's
 * search box, opening the list first when another screen is shown.
 */
import { navigate } from './router';

export const SEARCH_INPUT_ID = 'report-search';

/** Stops waiting for the list of an earlier command, if it never came. */
let stopWaiting: (() => void) | null = null;

function focusSearchBox(): boolean {
  const input = document.getElementById(SEARCH_INPUT_ID);
  if (!(input instanceof HTMLInputElement)) return false;
  input.focus();
  input.select();
  return true;
}

export function focusSearch(): void {
  stopWaiting?.();
  if (focusSearchBox()) return;
  navigate('/reports');
  if (focusSearchBox()) return;
  // The list renders its search box once it is shown; until then, or until the user acts.
  const observer = new MutationObserver(() => {
    if (focusSearchBox()) stop();
  });
  const stop = () => {
    observer.disconnect();
    window.removeEventListener('pointerdown', stop, true);
    window.removeEventListener('keydown', stop, true);
    stopWaiting = null;
  };
  observer.observe(document.body, { childList: true, subtree: true });
  window.addEventListener('pointerdown', stop, true);
  window.addEventListener('keydown', stop, true);
  stopWaiting = stop;
}
