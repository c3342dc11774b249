/**
 * Text from outside (a service's error page, a report field) made safe to show in a terminal
 * or a sentence: terminal escape sequences (ESC [ … final) removed, every other control
 * character turned into a space, and invisible format characters (Unicode category Cf: the
 * bidi controls U+202A–U+202E and U+2066–U+2069 that can make a terminal show text in another
 * order than it holds, zero-width spaces and joiners, the byte-order mark, tag characters)
 * removed. Written as a scan rather than a regular expression so that no control character has
 * to appear in a pattern.
 */
const ESC = 0x1b;
const isControl = (code: number) => code <= 0x1f || (code >= 0x7f && code <= 0x9f);
const isParameter = (ch: string) => (ch >= '0' && ch <= '9') || ch === ';' || ch === '?';
const isIntermediate = (ch: string) => ch >= ' ' && ch <= '/';
const isFinal = (ch: string) => ch >= '@' && ch <= '~';
const INVISIBLE_FORMAT = /^\p{Cf}$/u;
/** U+2028 and U+2029 end a line in some terminals and editors, as a newline does. */
const isLineSeparator = (code: number) => code === 0x2028 || code === 0x2029;

export function withoutControlCharacters(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i) ?? 0;
    if (code > 0xffff) {
      // An astral character (an emoji, a tag character): two UTF-16 units.
      const pair = text.slice(i, i + 2);
      if (!INVISIBLE_FORMAT.test(pair)) out += pair;
      i++;
      continue;
    }
    if (code === ESC && text[i + 1] === '[') {
      let end = i + 2;
      while (end < text.length && isParameter(text[end])) end++;
      while (end < text.length && isIntermediate(text[end])) end++;
      if (end < text.length && isFinal(text[end])) {
        i = end;
        continue;
      }
    }
    if (INVISIBLE_FORMAT.test(text[i])) continue;
    out += isControl(code) || isLineSeparator(code) ? ' ' : text[i];
  }
  return out;
}
