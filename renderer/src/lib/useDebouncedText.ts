import { useEffect, useRef, useState } from 'react';

/** How long the user pauses typing before a text filter applies. */
export const TYPING_PAUSE_MS = 300;

/** A text box whose value reaches the list state only after the user pauses typing. */
export function useDebouncedText(
  committed: string,
  commit: (value: string) => void,
): [string, (value: string) => void] {
  const [text, setText] = useState(committed);
  const [lastCommitted, setLastCommitted] = useState(committed);
  // A change from outside (Clear filters, restore) replaces what is in the box.
  if (committed !== lastCommitted) {
    setLastCommitted(committed);
    setText(committed);
  }
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  useEffect(() => {
    if (text === committed) return;
    const timer = window.setTimeout(() => commitRef.current(text), TYPING_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [text, committed]);
  return [text, setText];
}
