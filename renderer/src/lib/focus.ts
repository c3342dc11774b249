/**
 * Where the keyboard focus goes when the screen changes under it: to the new screen's heading
 * after navigation (and a polite announcement of the screen), to the heading when the focused
 * control disappears (a deleted row, a closed dialog's opener), never left on <body>.
 */
import { useEffect, useRef } from 'react';
import { announce } from './announce';

const HEADING = '#main h1';
const DIALOG = '[aria-modal="true"]';

/** Focuses the current screen's heading; false when there is none (yet). */
export function focusScreenHeading(): boolean {
  const heading = document.querySelector<HTMLElement>(HEADING);
  if (!heading) return false;
  // Focusable from script only: the heading is not a Tab stop.
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
  return true;
}

function focusOnBody(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}

/**
 * On each change of `path`: unless the new screen already put the focus inside itself (Ctrl+F
 * in the search box), the focus goes to its heading once the heading is there, and the screen
 * is announced politely (`announcement`: "Settings screen", in the window's language). Between navigations it rescues a focus left on <body>.
 */
export function useScreenFocus(path: string, announcement: string): void {
  const firstPath = useRef(path);
  const said = useRef(announcement);
  useEffect(() => {
    said.current = announcement;
  });

  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    // Nothing to announce on first load; after that, each new screen by name.
    if (path !== firstPath.current) {
      firstPath.current = '';
      announce(said.current);
    }
    // Wait for the heading (a screen may still be loading), but only until the user acts.
    let pending = !main.contains(document.activeElement) || focusOnBody();
    // The control that had the focus: when it is removed, the focus is lost, not put down.
    let lastFocused: Element | null = document.activeElement;
    const stopWaiting = () => {
      pending = false;
    };
    const remember = (event: FocusEvent) => {
      lastFocused = event.target instanceof Element ? event.target : null;
    };
    const settle = () => {
      if (document.querySelector(DIALOG)) return;
      if (pending) {
        if (main.contains(document.activeElement) && !focusOnBody()) pending = false;
        else if (focusScreenHeading()) pending = false;
      } else if (focusOnBody() && lastFocused !== null && !lastFocused.isConnected) {
        focusScreenHeading();
      }
    };
    // Listening first: the heading the first settle() focuses is the one to rescue if it goes.
    document.addEventListener('focusin', remember);
    settle();
    const observer = new MutationObserver(settle);
    observer.observe(main, { childList: true, subtree: true });
    // A dialog (portaled into <body>) that leaves after the navigation: the wait for the heading,
    // which a dialog holds off, goes on then.
    observer.observe(document.body, { childList: true });
    window.addEventListener('keydown', stopWaiting, true);
    window.addEventListener('pointerdown', stopWaiting, true);
    return () => {
      observer.disconnect();
      window.removeEventListener('keydown', stopWaiting, true);
      window.removeEventListener('pointerdown', stopWaiting, true);
      document.removeEventListener('focusin', remember);
    };
  }, [path]);
}
