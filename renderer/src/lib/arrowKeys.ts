/**
 * Horizontal arrow keys follow what the eye sees (issue 28): → moves to what is drawn on the
 * right, which in a right-to-left layout is what comes before. Everything laid out along a line
 * — the list's pages, a chart's points in time — asks here which way an arrow goes in reading
 * order, so it mirrors with the layout.
 */

/** A step in reading order: to what comes next, or to what came before. */
export type ReadingStep = 1 | -1;

export type Direction = 'ltr' | 'rtl';

/** The step a key takes in reading order where the text runs in `direction`; null for any other key. */
export function readingStep(key: string, direction: Direction): ReadingStep | null {
  const forward = direction === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
  const backward = direction === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
  if (key === forward) return 1;
  if (key === backward) return -1;
  return null;
}

/** The direction an element is laid out in (its `dir`, or the one it inherits). */
export function layoutDirection(element: Element): Direction {
  return getComputedStyle(element).direction === 'rtl' ? 'rtl' : 'ltr';
}

/** The arrow key that takes `step` in reading order where the text runs in `direction`, as printed on it. */
export function arrowSign(step: ReadingStep, direction: Direction): '→' | '←' {
  return (step === 1) === (direction === 'ltr') ? '→' : '←';
}
