/**
 * One polite live region for the whole app (rendered by the ToastProvider): screen changes and
 * form checks are read once, from a region that was there before its text arrived.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { useWords } from './i18n';

let message = '';
const listeners = new Set<() => void>();

/** Says `text` to screen readers; the same text twice in a row is read twice. */
export function announce(text: string): void {
  // A region only speaks when its text changes: alternate a trailing no-break space.
  message = message === text ? `${text}\u00a0` : text;
  listeners.forEach((listener) => listener());
}

export function useAnnouncement(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => message,
  );
}

export function Announcer() {
  const text = useAnnouncement();
  // At the end of <body>, outside what a modal dialog makes inert: a dialog's checks speak too.
  return createPortal(
    <div className="visually-hidden" role="status" aria-live="polite" data-live-region="">
      {text}
    </div>,
    document.body,
  );
}

/**
 * After a submit that failed its checks: once the errors are on screen, the focus goes to the
 * first invalid control of the form and the count is announced. Call the returned function
 * with the form when a submit is refused.
 */
export function useInvalidSubmitFocus(): (form: HTMLFormElement | null) => void {
  const words = useWords();
  const wordsNow = useRef(words);
  useEffect(() => {
    wordsNow.current = words;
  });
  const [attempt, setAttempt] = useState<{ form: HTMLFormElement; count: number } | null>(null);
  useEffect(() => {
    if (!attempt) return;
    const invalid = [...attempt.form.querySelectorAll<HTMLElement>('[aria-invalid="true"]')];
    if (invalid.length === 0) return;
    // Radio buttons of one group count as one field.
    const fields = new Set(invalid.map((control) => control.getAttribute('name') ?? control));
    invalid[0].focus();
    announce(wordsNow.current('form.fields_need_attention', { count: fields.size }));
  }, [attempt]);
  return (form) => {
    if (form) setAttempt((previous) => ({ form, count: (previous?.count ?? 0) + 1 }));
  };
}
