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
