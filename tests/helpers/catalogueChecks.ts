/**
 * What the catalogue test checks of a translation against the English source: every key and no
 * other, each message valid ICU, the same set of arguments each used the same ways (in any order),
 * the choices of every select, and exactly the plural categories the language has
 * (`Intl.PluralRules`) wherever English has a plural.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { directionOf, isLanguage } from '../../shared/i18n/languages';

const KINDS: Partial<Record<TYPE, string>> = {
  [TYPE.argument]: 'text',
  [TYPE.number]: 'number',
  [TYPE.date]: 'date',
  [TYPE.time]: 'time',
  [TYPE.select]: 'select',
  [TYPE.plural]: 'plural',
  [TYPE.tag]: 'tag',
};

/** Which kind an argument used several ways is: a plural or select over a number or date over text. */
const RANK: Record<string, number> = { text: 0, number: 1, date: 1, time: 1, plural: 2, select: 2, tag: 2 };

/** Each argument (and tag) a message uses, with its kind: `count` → `plural`, `name` → `text`. */
export function argumentsOf(elements: readonly MessageFormatElement[], into = new Map<string, string>()) {
  for (const element of elements) {
    const kind = KINDS[element.type];
    if (kind && 'value' in element) {
      const name = element.type === TYPE.tag ? `<${element.value}>` : element.value;
      const known = into.get(name);
      // An argument said plainly and as a plural (`{count}` or `{count, number}` beside
      // `{count, plural, …}`, in either order) is a plural.
      if (known === undefined || RANK[kind] > RANK[known]) into.set(name, kind);
    }
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    if (element.type === TYPE.tag) argumentsOf(element.children, into);
  }
  return into;
}

/**
 * Each argument (and tag) a message uses, with every way it is used: `{count, number}` and
 * `{count, plural, …}` → `count` → {number, plural}. A set, so the order a language puts them in
 * does not matter.
 */
export function argumentUses(
  elements: readonly MessageFormatElement[],
  into = new Map<string, Set<string>>(),
): Map<string, Set<string>> {
  for (const element of elements) {
    const kind = KINDS[element.type];
    if (kind && 'value' in element) {
      const name = element.type === TYPE.tag ? `<${element.value}>` : element.value;
      into.set(name, (into.get(name) ?? new Set()).add(`${kind}${styleOf(element)}`));
    }
    if (element.type === TYPE.plural || element.type === TYPE.select)
      for (const option of Object.values(element.options)) argumentUses(option.value, into);
    if (element.type === TYPE.tag) argumentUses(element.children, into);
  }
  return into;
}

/**
 * A number's, date's or time's style as written: `::yyyyMMMM`, `::unit/megabyte …`, `short`. A
 * skeleton names the fields wanted, not their order or words (Intl writes those in each
 * language), so a translation keeps it as English has it: a changed one shows other fields.
 */
function styleOf(element: MessageFormatElement): string {
  if (element.type !== TYPE.number && element.type !== TYPE.date && element.type !== TYPE.time) return '';
  const style: unknown = element.style;
  if (style === null || style === undefined) return '';
  if (typeof style === 'string') return ` ${style}`;
  const skeleton = style as { pattern?: string; tokens?: { stem: string; options: string[] }[] };
  if (skeleton.pattern !== undefined) return ` ::${skeleton.pattern}`;
  const tokens = (skeleton.tokens ?? []).map((token) => [token.stem, ...token.options].join('/'));
  return ` ::${tokens.join(' ')}`;
}

/** `count (number, plural), id (text)`: arguments by name, each with its uses, in a fixed order. */
function describeUses(uses: Map<string, Set<string>>): string {
  return (
    [...uses]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, kinds]) => `${name} (${[...kinds].sort().join(', ')})`)
      .join(', ') || 'none'
  );
}

/** Every plural and select in a message, by argument: its choices. */
function choicesOf(
  elements: readonly MessageFormatElement[],
  into = new Map<string, { kind: 'plural' | 'select'; keys: Set<string> }[]>(),
) {
  for (const element of elements) {
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const list = into.get(element.value) ?? [];
      list.push({
        kind: element.type === TYPE.plural ? 'plural' : 'select',
        keys: new Set(Object.keys(element.options)),
      });
      into.set(element.value, list);
      for (const option of Object.values(element.options)) choicesOf(option.value, into);
    }
    if (element.type === TYPE.tag) choicesOf(element.children, into);
  }
  return into;
}

/** The pointing signs of a text, in order. */
const arrowsOf = (text: string) => [...text].filter((sign) => '‹›←→'.includes(sign)).join('');

/**
 * A right-to-left translation's arrows: ‹ and › as English has them (Unicode draws them mirrored
 * right to left by itself), and → written ← (an arrow is not mirrored: “before → after” reads
 * from the right). Left-to-right translations write their arrows as they like.
 */
function arrowProblem(language: string, english: string, translated: string): string | null {
  if (!isLanguage(language) || directionOf(language) !== 'rtl') return null;
  const wanted = arrowsOf(english).replace(/[→←]/g, (arrow) => (arrow === '→' ? '←' : '→'));
  const got = arrowsOf(translated);
  return got === wanted
    ? null
    : `arrows ${got || 'none'}, a right-to-left language writes ${wanted || 'none'}`;
}

export function compiled(text: string): MessageFormatElement[] {
  return parse(text, { requiresOtherClause: true, shouldParseSkeletons: true });
}

/** The problems of `translated` (id → ICU text) in `language` against `english`; none when it is complete. */
export function catalogueProblems(
  language: string,
  english: Record<string, string>,
  translated: Record<string, string>,
): string[] {
  const problems: string[] = [];
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories as string[];
  for (const id of Object.keys(english)) if (!(id in translated)) problems.push(`${id}: missing`);
  for (const [id, text] of Object.entries(translated)) {
    if (!(id in english)) {
      problems.push(`${id}: not in English`);
      continue;
    }
    let ours: MessageFormatElement[];
    try {
      ours = compiled(text);
    } catch (thrown) {
      problems.push(`${id}: not a valid ICU message (${(thrown as Error).message})`);
      continue;
    }
    const source = compiled(english[id]);
    const wanted = describeUses(argumentUses(source));
    const got = describeUses(argumentUses(ours));
    if (wanted !== got) problems.push(`${id}: arguments ${got}, English has ${wanted}`);
    const arrows = arrowProblem(language, english[id], text);
    if (arrows) problems.push(`${id}: ${arrows}`);
    const sourceChoices = choicesOf(source);
    for (const [name, list] of choicesOf(ours)) {
      for (const { kind, keys } of list) {
        if (kind === 'plural' && sourceChoices.get(name)?.some((choice) => choice.kind === 'plural')) {
          const missing = categories.filter((category) => !keys.has(category));
          if (missing.length > 0)
            problems.push(`${id}: {${name}} needs the plural categories ${missing.join(', ')}`);
          // An exact number (`=0`) is any language's to use; a category the language lacks is never chosen.
          const foreign = [...keys].filter((key) => !key.startsWith('=') && !categories.includes(key));
          if (foreign.length > 0)
            problems.push(
              `${id}: {${name}} has plural categories ${language} does not: ${foreign.join(', ')}`,
            );
        }
        if (kind === 'select') {
          const english = new Set(sourceChoices.get(name)?.flatMap((choice) => [...choice.keys]) ?? []);
          const missing = [...english].filter((key) => !keys.has(key));
          if (missing.length > 0)
            problems.push(`${id}: {${name}} is missing the choices ${missing.join(', ')}`);
        }
      }
    }
  }
  return problems;
}
