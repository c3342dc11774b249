/**
 * The pseudo-languages, made from the English catalogue: only the text a translator translates
 * changes; arguments, plural and select choices, `#` and tags stay, so each formats as English
 * does, with the same values.
 */
import { CATALOGUES } from 'virtual:catalogues/all';
import { describe, expect, it } from 'vitest';
import { createWords } from '../../../electron/core/desktop/words';
import type { MessageId } from '../../../shared/i18n/messages';
import { pseudoMessages, textLength } from '../../../shared/i18n/pseudo';
import { argumentsOf, compiled } from '../../helpers/catalogueChecks';

const english = CATALOGUES.en;
/** One message formatted as the main process formats it (@formatjs/intl). */
const format = (
  message: (typeof english)[string],
  locale: 'en-XA' | 'ar-XB',
  values?: Record<string, unknown>,
) =>
  createWords(locale, { 'nav.reports': message })(
    'nav.reports' as MessageId,
    values as Record<string, string>,
  );

describe('en-XA', () => {
  const xa = pseudoMessages(english, 'en-XA');

  it('accents every letter, brackets the text and makes it about 40% longer', () => {
    expect(format(xa['nav.reports'], 'en-XA')).toBe('[Ŕéƥöŕţš ~~~]');
    for (const [id, message] of Object.entries(xa)) {
      expect(textLength(message), id).toBeGreaterThanOrEqual(1.4 * textLength(english[id]));
      const text = format(message, 'en-XA', sampleValues(english[id]));
      expect(text, id).toMatch(/^\[[\s\S]* ~+\]$/);
    }
  });

  it('keeps every argument, plural and select as English has them', () => {
    for (const [id, message] of Object.entries(xa)) {
      expect([...argumentsOf(message)], id).toEqual([...argumentsOf(english[id])]);
    }
    expect(format(xa['bulk.delete.title'], 'en-XA', { count: 1 })).toBe('[Ðéļéţé 1 ŕéƥöŕţ? ~~~~~~~]');
    expect(format(xa['bulk.delete.title'], 'en-XA', { count: 3 })).toBe('[Ðéļéţé 3 ŕéƥöŕţš? ~~~~~~~]');
    expect(
      format(xa['errors.http.unreachable'], 'en-XA', { host: 'reports.example.com', cause: 'refused' }),
    ).toContain('reports.example.com');
  });
});

describe('the text a translator translates, and only that', () => {
  it('accents every letter, capitals too, and nothing but letters', () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ 0-9 …';
    const [open, text] = pseudoMessages({ x: compiled(alphabet) }, 'en-XA').x as { value: string }[];
    expect(open.value).toBe('[');
    expect(text.value).toBe('áƀçðéƒĝĥîĵķļɱñöƥǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖƤǪŔŠŢÛṼŴẊÝŽ 0-9 …');
  });

  it('changes the words inside tags, selects and plurals, never their names or keys', () => {
    const [xa] = Object.values(
      pseudoMessages(
        { x: compiled('<b>Hi</b> {n, plural, one {# cat} other {# cats}} {k, select, a {yes} other {no}}') },
        'en-XA',
      ),
    );
    expect(format(xa, 'en-XA', { b: (chunks: string[]) => `*${chunks.join('')}*`, n: 2, k: 'a' })).toBe(
      '[*Ĥî* 2 çáţš ýéš ~~~~~]',
    );
  });

  it('pads with words of at most eight tildes: a translation is longer by words, not by one long word', () => {
    const [, , padding] = pseudoMessages({ x: compiled('a'.repeat(50)) }, 'en-XA').x as { value: string }[];
    expect(padding.value).toBe(' ~~~~~~~~ ~~~~~~~~ ~~~~]');
  });

  it('counts a message’s text as its longest choice, and the text in its tags', () => {
    expect(textLength(compiled('abc'))).toBe(3);
    expect(textLength(compiled('<b>abcd</b>e'))).toBe(5);
    expect(textLength(compiled('x {n, plural, one {a} other {abcdef}}'))).toBe(8);
    expect(textLength(compiled('{k, select, a {abc} other {ab}}!'))).toBe(4);
    expect(textLength(compiled('{name} {count, number}'))).toBe(1);
  });
});

describe('ar-XB', () => {
  const xb = pseudoMessages(english, 'ar-XB');

  it('writes every English word right to left, and leaves the values as they are', () => {
    const text = format(xb['report.deleted'], 'ar-XB', { id: 'abc-12' });
    expect(text).toBe(
      ['Report', 'abc-12', 'was', 'deleted.']
        .map((word, i) =>
          i === 1 ? word : `\u200f\u202e${word.replace('.', '')}\u202c\u200f${word.endsWith('.') ? '.' : ''}`,
        )
        .join(' '),
    );
    for (const [id, message] of Object.entries(xb)) {
      expect([...argumentsOf(message)], id).toEqual([...argumentsOf(english[id])]);
    }
  });

  it('points the reading order’s arrows the other way, as a right-to-left translation writes them; ‹ › mirror by themselves', () => {
    const [xbArrows] = Object.values(pseudoMessages({ x: compiled('‹ {a} → {b} ← ›') }, 'ar-XB'));
    expect(format(xbArrows, 'ar-XB', { a: 'A', b: 'B' })).toBe('‹ A ← B → ›');
  });
});

/** A value for each argument of a message: a number for plurals and numbers, a choice for selects. */
function sampleValues(message: (typeof english)[string]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, kind] of argumentsOf(message)) {
    if (name.startsWith('<')) values[name.slice(1, -1)] = (chunks: string[]) => chunks.join('');
    else if (kind === 'plural' || kind === 'number') values[name] = 2;
    else if (kind === 'date' || kind === 'time') values[name] = new Date(0);
    else values[name] = 'other';
  }
  return values;
}

it('the checks above read compiled messages as the parser makes them', () => {
  expect(argumentsOf(compiled('{n, plural, one {#} other {# x {y}}}'))).toEqual(
    new Map([
      ['n', 'plural'],
      ['y', 'text'],
    ]),
  );
});
