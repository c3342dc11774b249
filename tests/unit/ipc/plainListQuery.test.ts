/**
 * The list query's fast path (issue 22): plainListQuery builds what ListQuerySchema would from a
 * query already in its plain form, or declines (and zod reads it, naming what it refuses).
 * Compared with zod itself over random and hostile queries: the same fields, values and key
 * order, or a refusal to guess. The contract's parseChannelInput takes it for `reports:list`.
 */
import { describe, expect, it, vi } from 'vitest';
import { plainListQuery } from '../../../shared/plainListQuery';
import {
  ListQuerySchema,
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
} from '../../../shared/report';
import { listStateToQuery, type ListState } from '../../../renderer/src/lib/listState';
import { mulberry32 } from '../../helpers/hostileJson';

const zod = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../../shared/report', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../shared/report')>();
  const { countedSchema } = await import('../../helpers/countedZod');
  return { ...actual, ListQuerySchema: countedSchema(actual.ListQuerySchema, zod) };
});
// Imported after the mock: the contract's channel table holds the counted schema.
const { parseChannelInput } = await import('../../../shared/contract');

const keysOf = (value: unknown) => Object.keys(value as object);

/** Values each field may meet: valid ones, their edges, and forms the schema converts or refuses. */
const CANDIDATES: Record<string, unknown[]> = {
  search: ['', 'contoso', 'a'.repeat(2000), 'a'.repeat(2001), '\u{1F600}'.repeat(1000), 5, null],
  search_by: ['url', 'URL', 'name', '', null],
  project: ['', 'docs', 'p'.repeat(200), 'p'.repeat(201), 7, null],
  result: ['good', 'decent', 'bad', 'GOOD', '', null, 1],
  sort_by: ['id', 'generated_at', 'url', 'result', 'privacy', ''],
  sort: ['asc', 'desc', 'ASC', 'up'],
  per_page: [10, 25, 50, 100, 20, 0, '25', '100', 25.5, -10, null, Number.NaN],
  page: [
    1,
    2,
    1_000_000,
    1_000_001,
    0,
    -1,
    1.5,
    -0,
    '3',
    '03',
    ' 3',
    Number.POSITIVE_INFINITY,
    Number.NaN,
    2 ** 53,
  ],
};
const OTHER_KEYS = ['perPage', 'q', '__proto__', 'constructor', 'toString', ''];

function randomQuery(random: () => number): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  const fields = Object.keys(CANDIDATES);
  // Any order: the schema's output has its own.
  for (let i = fields.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [fields[i], fields[j]] = [fields[j], fields[i]];
  }
  for (const field of fields) {
    if (random() < 0.5) continue;
    const values = CANDIDATES[field];
    // Mostly valid values (the first ones), so that the comparison runs on many accepted queries.
    const index = random() < 0.7 ? 0 : Math.floor(random() * values.length);
    query[field] = random() < 0.05 ? undefined : values[index];
  }
  if (random() < 0.1) {
    const key = OTHER_KEYS[Math.floor(random() * OTHER_KEYS.length)];
    // An own __proto__ as JSON.parse (or a structured clone) makes it, not the setter.
    Object.defineProperty(query, key, { value: 1, enumerable: true, configurable: true, writable: true });
  }
  return query;
}

/** zod's answer, or the fast path's: the same, or the fast path declined. */
function expectSameAsZod(input: unknown): boolean {
  const plain = plainListQuery(input);
  if (plain === undefined) return false;
  const parsed = ListQuerySchema.safeParse(input);
  expect({ input, success: parsed.success }).toEqual({ input, success: true });
  expect(plain).toStrictEqual(parsed.data);
  expect(keysOf(plain)).toEqual(keysOf(parsed.data));
  return true;
}

describe('plainListQuery', () => {
  it('reads the list’s usual queries as zod does, fields in the schema’s order', () => {
    for (const query of [
      {},
      { per_page: 100 },
      { page: 3, per_page: 25, sort: 'asc', sort_by: 'url' },
      { sort_by: 'result', search: 'fabrikam.io/products', search_by: 'url', result: 'bad', project: 'docs' },
    ])
      expect(expectSameAsZod(query)).toBe(true);
    expect(keysOf(plainListQuery({ page: 2, search: 'x', per_page: 10 }))).toEqual([
      'search',
      'per_page',
      'page',
    ]);
    expect(plainListQuery({ search: 'x' })).not.toBe(plainListQuery({ search: 'x' }));
  });

  it('takes every value the schema accepts as it is, edges included', () => {
    const accepted: Record<string, unknown[]> = {
      search: ['', 'a'.repeat(2000)],
      search_by: ['url'],
      project: ['', 'p'.repeat(200)],
      result: ['good', 'decent', 'bad'],
      sort_by: ['id', 'generated_at', 'url', 'result'],
      sort: ['asc', 'desc'],
      per_page: [10, 25, 50, 100],
      page: [1, 2, 1_000_000],
    };
    for (const [field, values] of Object.entries(accepted))
      for (const value of values)
        expect({ field, value, read: expectSameAsZod({ [field]: value }) }).toEqual({
          field,
          value,
          read: true,
        });
  });

  it.each([
    ['a page size sent as text (zod converts it)', { per_page: '25' }],
    ['a page sent as text (zod converts it)', { page: '3' }],
    ['a page size the service does not offer', { per_page: 20 }],
    ['a page past the last allowed', { page: 1_000_001 }],
    ['a page that is not whole', { page: 1.5 }],
    ['page 0', { page: 0 }],
    ['a search one character too long', { search: 'a'.repeat(2001) }],
    ['a project one character too long', { project: 'p'.repeat(201) }],
    ['a result in capitals', { result: 'GOOD' }],
    ['an unknown field (the schema is strict)', { perPage: 10 }],
    ['an empty field name', { '': 1 }],
    ['a field set to undefined', { search: undefined }],
    ['an own __proto__', JSON.parse('{"__proto__":{"page":2}}') as unknown],
    ['a list', [1]],
    ['null', null],
    ['nothing', undefined],
    ['text', 'page=2'],
    ['an object of a class', new (class Query {})()],
    ['an object without a prototype', Object.assign(Object.create(null) as object, { page: 2 })],
    [
      'a known field hidden from enumeration',
      Object.defineProperty({}, 'page', { value: 2, enumerable: false }),
    ],
  ])('declines %s, leaving it to zod', (_, input) => {
    expect(plainListQuery(input)).toBeUndefined();
  });

  it('reads a field inherited from a polluted Object.prototype as zod does (zod reads it too)', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    const read = (key: string, value: unknown) => {
      prototype[key] = value;
      try {
        return [{}, { per_page: 10 }].map((query) => ({
          plain: plainListQuery(query),
          zod: ListQuerySchema.safeParse(query),
        }));
      } finally {
        delete prototype[key];
      }
    };
    // A valid inherited page: both read it.
    for (const { plain, zod: parsed } of read('page', 2)) {
      expect(plain).toMatchObject({ page: 2 });
      expect(parsed.success && parsed.data).toStrictEqual(plain);
    }
    // One zod converts, or one the strict schema refuses: the fast path declines.
    for (const [key, value] of [
      ['page', '2'],
      ['stranger', 1],
    ] as const)
      for (const { plain } of read(key, value)) expect(plain).toBeUndefined();
  });

  it.each([21, 22, 23])('over random and hostile queries (seed %i): what zod makes, or nothing', (seed) => {
    const random = mulberry32(seed);
    let read = 0;
    for (let n = 0; n < 1000; n++) if (expectSameAsZod(randomQuery(random))) read += 1;
    // Most queries are plain: the comparison must have run on many.
    expect(read).toBeGreaterThan(300);
  });
});

describe('the list screen’s queries', () => {
  it('all take the fast path, whatever the list shows (renderer/src/lib/listState.ts)', () => {
    const random = mulberry32(31);
    const one = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
    for (let n = 0; n < 500; n++) {
      const state: ListState = {
        search: one(['', ' contoso ', 'fabrikam.io/products', '"quoted" 100%', 'a'.repeat(2000)]),
        result: one([null, ...REPORT_RESULTS]),
        project: one(['', 'docs', ' blog ']),
        sortBy: one(SORT_BY_VALUES),
        sort: one(SORT_VALUES),
        perPage: one(PER_PAGE_VALUES),
        page: one([1, 2, 40, 1_000_000]),
      };
      expect({ state, read: expectSameAsZod(listStateToQuery(state)) }).toEqual({ state, read: true });
    }
  });
});

describe('parseChannelInput for reports:list', () => {
  it('answers a plain query without zod, and hands zod the rest (its sentences stay)', () => {
    zod.calls = 0;
    expect(parseChannelInput('reports:list', { per_page: 100, page: 2 })).toEqual({
      ok: true,
      value: { per_page: 100, page: 2 },
    });
    expect(zod.calls).toBe(0);
    expect(parseChannelInput('reports:list', { per_page: '25' })).toEqual({
      ok: true,
      value: { per_page: 25 },
    });
    expect(zod.calls).toBe(1);
    const refused = parseChannelInput('reports:list', { per_page: 20 });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatchObject({
      kind: 'invalid_input',
      message: 'Page size must be one of 10, 25, 50 or 100.',
      fieldErrors: { per_page: ['Page size must be one of 10, 25, 50 or 100.'] },
    });
    expect(zod.calls).toBe(2);
  });
});
