/**
 * What tests/e2e/languages.spec.ts looks for in the page (issue 28), run in the page itself
 * (bundled by ../pageScript.ts and installed as `globalThis.__languageChecks`):
 *  - untranslated: text a person reads (text, the selected option, title, aria-label,
 *    placeholder, alt, the window's title) that the pseudo-language did not touch: plain English
 *    that did not come from the catalogue. User data is exempt, by its markup (the app gives
 *    every piece its own direction: `dir`, `<bdi>`, `<time>`, or `lang` for a language's own
 *    name), and so are the words Intl writes itself (a pseudo-language formats dates as English);
 *  - cutOff: text clipped by a box that hides its overflow (or cut short with an ellipsis), or
 *    drawn outside the window where nothing scrolls to it;
 *  - overlapping: two pieces of text (or a field) drawn over one another.
 * With a modal dialog open only the dialog is looked at (the page behind it is inert).
 */
import type { TextProblem } from '../languageProblems';

/** Markup that says "this is user data" (or another language's own words). */
const USER_DATA = '[dir]:not(html), bdi, time';

/** The letters en-XA writes (accented) and its padding: text that went through the catalogue. */
const PSEUDO_MARK = /[\u00c0-\u024f\u1e00-\u1eff]|~\]/;

function describe(element: Element): string {
  const parts: string[] = [];
  for (
    let at: Element | null = element;
    at && at !== document.body && parts.length < 4;
    at = at.parentElement
  ) {
    const id = at.id ? `#${at.id}` : '';
    const classes = [...at.classList]
      .slice(0, 2)
      .map((name) => `.${name}`)
      .join('');
    parts.unshift(`${at.tagName.toLowerCase()}${id}${classes}`);
  }
  return parts.join(' > ');
}

/** Where to look: the open modal dialog, else the whole page. */
function scope(): Element {
  return document.querySelector('[aria-modal="true"]') ?? document.body;
}

function isUserData(element: Element): boolean {
  if (element.closest(USER_DATA)) return true;
  // A language's own name (Settings › Language) is marked with its language.
  const lang = element.closest('[lang]:not(html)');
  return lang !== null && lang.getAttribute('lang') !== document.documentElement.lang;
}

/**
 * Text for screen readers only (`.visually-hidden`): inside a box clipped to nothing, or of a pixel
 * that hides its overflow (a table is as large as its cells, whatever its width says).
 */
function isScreenReaderOnly(element: Element): boolean {
  for (let at: Element | null = element; at; at = at.parentElement) {
    const style = getComputedStyle(at);
    if (style.clip !== 'auto' && /rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(style.clip)) return true;
    const box = at.getBoundingClientRect();
    if ((box.width <= 1 || box.height <= 1) && style.overflow !== 'visible') return true;
  }
  return false;
}

/** Drawn on screen: visible, and not text for screen readers only. */
function isDrawn(element: Element): boolean {
  if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  const box = element.getBoundingClientRect();
  return box.width > 1 && box.height > 1 && !isScreenReaderOnly(element);
}

/** Not drawn at all (display: none, hidden): screen-reader-only text is still read, so checked. */
function isRendered(element: Element): boolean {
  return element.checkVisibility();
}

function textNodes(root: Element): Text[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !(node.nodeValue ?? '').trim()) continue;
    if (parent.closest('script, style, noscript, template, option, datalist')) continue;
    nodes.push(node as Text);
  }
  return nodes;
}

/** The words Intl itself writes in `locale`: month and day names, "at", AM/PM, ages ("3 minutes ago"). */
function intlWords(locale: string): Set<string> {
  const words = new Set<string>();
  const add = (text: string) => {
    for (const word of text.match(/[A-Za-z]{2,}/g) ?? []) words.add(word);
  };
  for (let month = 0; month < 12; month++) {
    for (const hour of [3, 15]) {
      const date = new Date(Date.UTC(2026, month, 1 + month * 2, hour, 30));
      for (const dateStyle of ['full', 'medium'] as const)
        for (const timeStyle of ['long', 'short'] as const)
          add(new Intl.DateTimeFormat(locale, { dateStyle, timeStyle }).format(date));
      add(new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(date));
    }
  }
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  for (const unit of ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'] as const)
    for (const value of [-2, -1, 1, 2]) add(relative.format(value, unit));
  return words;
}

/** Text that did not go through the catalogue: plain words that are neither pseudo nor Intl's. */
function looksUntranslated(text: string, allowed: Set<string>): boolean {
  if (PSEUDO_MARK.test(text)) return false;
  return (text.match(/[A-Za-z]{2,}/g) ?? []).some((word) => !allowed.has(word));
}

const READ_ATTRIBUTES = ['title', 'aria-label', 'placeholder', 'alt', 'aria-description'];

function untranslated(): TextProblem[] {
  const allowed = intlWords(document.documentElement.lang);
  const problems: TextProblem[] = [];
  const root = scope();
  const report = (text: string, element: Element) =>
    problems.push({ problem: 'untranslated', text: text.trim().slice(0, 120), where: describe(element) });
  for (const node of textNodes(root)) {
    const parent = node.parentElement!;
    if (!isRendered(parent) || isUserData(parent) || parent.closest('[inert]')) continue;
    if (looksUntranslated(node.nodeValue ?? '', allowed)) report(node.nodeValue ?? '', parent);
  }
  for (const element of [root, ...root.querySelectorAll('*')]) {
    if (!isRendered(element) || isUserData(element) || element.closest('[inert]')) continue;
    for (const name of READ_ATTRIBUTES) {
      const value = element.getAttribute(name);
      if (value && looksUntranslated(value, allowed)) report(`${name}="${value}"`, element);
    }
    if (element instanceof HTMLSelectElement) {
      const chosen = element.selectedOptions[0];
      if (chosen && !isUserData(chosen) && looksUntranslated(chosen.text, allowed))
        report(chosen.text, element);
    }
  }
  if (looksUntranslated(document.title, allowed))
    problems.push({ problem: 'untranslated', text: document.title, where: 'document.title' });
  return problems;
}

/** The part of the window an element's content can be seen in: its clipping ancestors' boxes, the window. */
interface Clip {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Whether something scrolls sideways to what lies beyond left/right (a wide table's wrapper). */
  scrollsX: boolean;
  scrollsY: boolean;
}

/**
 * A box that may scroll sideways: a table wider than the window (the list's, the changes'). Any
 * other box that scrolls sideways holds text that does not fit the window.
 */
function scrollsTable(box: Element): boolean {
  return box.querySelector(':scope > table') !== null;
}

function clipOf(element: Element): Clip {
  const clip: Clip = {
    left: 0,
    top: 0,
    right: document.documentElement.clientWidth,
    bottom: document.documentElement.clientHeight,
    // The window never scrolls sideways in a desktop app; a page taller than it scrolls down.
    scrollsX: false,
    scrollsY: true,
  };
  for (let at = element.parentElement; at && at !== document.documentElement; at = at.parentElement) {
    const style = getComputedStyle(at);
    const box = at.getBoundingClientRect();
    const clipsX = style.overflowX !== 'visible';
    const clipsY = style.overflowY !== 'visible';
    if (clipsX) {
      clip.left = Math.max(clip.left, box.left + at.clientLeft);
      clip.right = Math.min(clip.right, box.left + at.clientLeft + at.clientWidth);
      if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && scrollsTable(at))
        clip.scrollsX = true;
    }
    if (clipsY) {
      clip.top = Math.max(clip.top, box.top + at.clientTop);
      clip.bottom = Math.min(clip.bottom, box.top + at.clientTop + at.clientHeight);
      if (style.overflowY === 'auto' || style.overflowY === 'scroll') clip.scrollsY = true;
    }
  }
  return clip;
}

/** Each line box of a text node. */
function rectsOf(node: Text): DOMRect[] {
  const range = document.createRange();
  range.selectNodeContents(node);
  return [...range.getClientRects()].filter((rect) => rect.width > 0.5 && rect.height > 0.5);
}

/** Lets half a pixel of anti-aliasing and rounding pass. */
const SLACK = 1;

function cutOff(): TextProblem[] {
  const problems: TextProblem[] = [];
  const seen = new Set<Element>();
  const root = scope();
  // Sideways scrolling (but a wide table's): what lies beyond is where no one looks for it.
  for (const box of [root, ...root.querySelectorAll('*')]) {
    const overflowX = getComputedStyle(box).overflowX;
    if ((overflowX !== 'auto' && overflowX !== 'scroll') || scrollsTable(box) || !isDrawn(box)) continue;
    if (box.scrollWidth > box.clientWidth + SLACK) {
      seen.add(box);
      problems.push({
        problem: 'outside the window',
        text: `${box.scrollWidth - box.clientWidth}px too wide`,
        where: describe(box),
      });
    }
  }
  for (const node of textNodes(root)) {
    const parent = node.parentElement!;
    if (!isDrawn(parent) || isUserData(parent) || parent.closest('[inert]')) continue;
    const text = (node.nodeValue ?? '').trim().slice(0, 80);
    // The box that holds the text cuts it: hidden overflow, or an ellipsis.
    for (let at: Element | null = parent; at && at !== document.body; at = at.parentElement) {
      if (seen.has(at)) break;
      const style = getComputedStyle(at);
      const hidesX =
        style.overflowX === 'hidden' || style.overflowX === 'clip' || style.textOverflow === 'ellipsis';
      const hidesY = style.overflowY === 'hidden' || style.overflowY === 'clip';
      if (
        (hidesX && at.scrollWidth > at.clientWidth + SLACK) ||
        (hidesY && at.scrollHeight > at.clientHeight + SLACK)
      ) {
        seen.add(at);
        problems.push({ problem: 'cut off', text, where: describe(at) });
        break;
      }
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') break;
    }
    // Drawn where no one can see or scroll to it.
    const clip = clipOf(parent);
    for (const rect of rectsOf(node)) {
      const outsideX = rect.left < clip.left - SLACK || rect.right > clip.right + SLACK;
      const outsideY = rect.top < clip.top - SLACK || rect.bottom > clip.bottom + SLACK;
      if ((outsideX && !clip.scrollsX) || (outsideY && !clip.scrollsY)) {
        problems.push({ problem: 'outside the window', text, where: describe(parent) });
        break;
      }
    }
  }
  return problems;
}

interface Piece {
  text: string;
  where: Element;
  rects: { left: number; right: number; top: number; bottom: number }[];
}

/** The visible part of each piece of text, and of each field (its text is drawn inside its box). */
function pieces(): Piece[] {
  const root = scope();
  const found: Piece[] = [];
  const visiblePart = (rect: DOMRect, clip: Clip) => ({
    left: Math.max(rect.left, clip.left),
    right: Math.min(rect.right, clip.right),
    top: Math.max(rect.top, clip.top),
    bottom: Math.min(rect.bottom, clip.bottom),
  });
  for (const node of textNodes(root)) {
    const parent = node.parentElement!;
    if (!isDrawn(parent) || parent.closest('[inert], input, select, textarea')) continue;
    const clip = clipOf(parent);
    const rects = rectsOf(node)
      .map((rect) => visiblePart(rect, clip))
      .filter((rect) => rect.right - rect.left > SLACK && rect.bottom - rect.top > SLACK);
    if (rects.length > 0)
      found.push({ text: (node.nodeValue ?? '').trim().slice(0, 60), where: parent, rects });
  }
  for (const field of root.querySelectorAll(
    'input:not([type="checkbox"]):not([type="radio"]), select, textarea',
  )) {
    if (!isDrawn(field) || field.closest('[inert]')) continue;
    const rect = visiblePart(field.getBoundingClientRect(), clipOf(field));
    if (rect.right - rect.left > SLACK && rect.bottom - rect.top > SLACK)
      found.push({ text: `<${field.tagName.toLowerCase()} ${field.id}>`, where: field, rects: [rect] });
  }
  return found;
}

/** How far two boxes cover one another (0 when they only touch). */
function overlap(a: Piece['rects'][number], b: Piece['rects'][number]): number {
  const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return x > SLACK && y > SLACK ? x * y : 0;
}

function overlapping(): TextProblem[] {
  const all = pieces();
  const problems: TextProblem[] = [];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const [a, b] = [all[i], all[j]];
      // A field and the text inside it (a select's chosen option) are one piece.
      if (a.where.contains(b.where) || b.where.contains(a.where)) continue;
      if (a.rects.some((ra) => b.rects.some((rb) => overlap(ra, rb) > 0))) {
        problems.push({
          problem: 'overlapping',
          text: `"${a.text}" and "${b.text}"`,
          where: describe(a.where),
        });
      }
    }
  }
  return problems;
}

globalThis.__languageChecks = {
  untranslated,
  layout: () => [...cutOff(), ...overlapping()],
};
