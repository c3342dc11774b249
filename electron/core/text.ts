/**
 * Text from outside (a service's error page, a report field) made safe to show in a terminal
 * or a sentence: terminal escape sequences (ESC [ … final) removed, every other control
 * character turned into a space. Written as a scan rather than a regular expression so that
 * no control character has to appear in a pattern.
 */
const ESC = 0x1b;
const isControl = (code: number) => code <= 0x1f || (code >= 0x7f && code <= 0x9f);
const isParameter = (ch: string) => (ch >= '0' && ch <= '9') || ch === ';' || ch === '?';
const isIntermediate = (ch: string) => ch >= ' ' && ch <= '/';
const isFinal = (ch: string) => ch >= '@' && ch <= '~';

export function withoutControlCharacters(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === ESC && text[i + 1] === '[') {
      let end = i + 2;
      while (end < text.length && isParameter(text[end])) end++;
      while (end < text.length && isIntermediate(text[end])) end++;
      if (end < text.length && isFinal(text[end])) {
        i = end;
        continue;
      }
    }
    out += isControl(code) ? ' ' : text[i];
  }
  return out;
}
