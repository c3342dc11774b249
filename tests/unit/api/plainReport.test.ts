/**
 * The report reader's fast path (issue 22): plainReport builds what ReportSchema would from a
 * record JSON.parse made, or declines (and zod reads the record). Compared with zod itself over
 * random and hostile records: the same fields, values and key order, or a refusal to guess.
 */
import { describe, expect, it } from 'vitest';
import {
  parseJsonBody,
  plainReport,
  startsInSchemaOrder,
  toReport,
  toReportPage,
} from '../../../electron/core/api/responses';
import { ReportSchema } from '../../../shared/report';
import { mulberry32, randomReport, randomWriteOptions, writeJson } from '../../helpers/hostileJson';

const keysOf = (value: unknown) => Object.keys(value as object);
const zod = (record: unknown) => ReportSchema.parse(record);

describe('plainReport', () => {
  it('reads the common shape as zod does: the id as text, every other field as sent', () => {
    const record = JSON.parse(
      '{"id":7,"url":"https://a.example","result":"good","generated_at":"2026-01-01T00:00:00Z","privacy":2,"project":null,"score":3,"tags":["x"]}',
    ) as unknown;
    const plain = plainReport(record);
    expect(plain).toEqual(zod(record));
    expect(keysOf(plain)).toEqual(keysOf(zod(record)));
    expect(plain).toMatchObject({ id: '7', privacy: 2, project: null, tags: ['x'] });
    expect(plain).not.toBe(record);
  });

  it('puts the schema’s fields first, in its order, whatever order they came in', () => {
    const record = JSON.parse(
      '{"extra":1,"project":"p","privacy":0,"generated_at":null,"result":"bad","url":"u","id":"x1","10":"ten","after":2}',
    ) as unknown;
    expect(keysOf(plainReport(record))).toEqual(keysOf(zod(record)));
    expect(keysOf(plainReport(record))).toEqual([
      '10',
      'id',
      'url',
      'result',
      'generated_at',
      'privacy',
      'project',
      'extra',
      'after',
    ]);
  });

  it.each([
    ['a missing field', '{"id":1,"url":"u","result":"good","generated_at":null,"privacy":0}'],
    [
      'a privacy sent as text (zod converts it)',
      '{"id":1,"url":"u","result":null,"generated_at":null,"privacy":"1","project":null}',
    ],
    [
      'an own __proto__ (zod leaves it out)',
      '{"id":1,"url":"u","result":null,"generated_at":null,"privacy":0,"project":null,"__proto__":{"x":1}}',
    ],
    ['an empty id', '{"id":"","url":"u","result":null,"generated_at":null,"privacy":0,"project":null}'],
    ['an infinite id', '{"id":1e999,"url":"u","result":null,"generated_at":null,"privacy":0,"project":null}'],
    [
      'an infinite project',
      '{"id":1,"url":"u","result":null,"generated_at":null,"privacy":0,"project":-1e999}',
    ],
    [
      'a result in capitals',
      '{"id":1,"url":"u","result":"GOOD","generated_at":null,"privacy":0,"project":null}',
    ],
    [
      'a url that is not text',
      '{"id":1,"url":5,"result":null,"generated_at":null,"privacy":0,"project":null}',
    ],
    [
      'a date that is not text',
      '{"id":1,"url":"u","result":null,"generated_at":5,"privacy":0,"project":null}',
    ],
    [
      'a privacy out of range',
      '{"id":1,"url":"u","result":null,"generated_at":null,"privacy":3,"project":null}',
    ],
    [
      'a project that is a list',
      '{"id":1,"url":"u","result":null,"generated_at":null,"privacy":0,"project":[]}',
    ],
    ['a list', '[1]'],
  ])('declines %s, leaving it to zod', (_, text) => {
    expect(plainReport(JSON.parse(text))).toBeUndefined();
  });

  it('keeps a record of a body parsed here (nothing else holds it) instead of copying it', () => {
    const text =
      '{"id":7,"url":"https://a.example","result":"good","generated_at":null,"privacy":2,"project":null,"score":3}';
    const owned = JSON.parse(text) as Record<string, unknown>;
    const kept = plainReport(owned, true);
    expect(kept).toBe(owned);
    expect(kept).toEqual(zod(JSON.parse(text)));
    expect(keysOf(kept)).toEqual(keysOf(zod(JSON.parse(text))));
    // Out of the schema's order it is still a copy in that order; declined, it is left as it was.
    const unordered = JSON.parse(
      '{"url":"u","id":1,"result":null,"generated_at":null,"privacy":0,"project":null}',
    );
    expect(plainReport(unordered, true)).not.toBe(unordered);
    const odd = JSON.parse(
      '{"id":1,"url":"u","result":null,"generated_at":null,"privacy":"1","project":null}',
    );
    expect(plainReport(odd, true)).toBeUndefined();
    expect(odd).toEqual({ id: 1, url: 'u', result: null, generated_at: null, privacy: '1', project: null });
    // The client's pages: each report is the parsed body's own record, read as zod reads it.
    const body = parseJsonBody(200, `{"data":[${text}]}`) as { data: unknown[] };
    const page = toReportPage(body, { page: 1, perPage: 10 }, 200);
    expect(page.reports[0]).toBe(body.data[0]);
    expect(page.reports[0]).toEqual(zod(JSON.parse(text)));
  });

  it('copies a record that starts with the schema’s fields in its order as it is', () => {
    const fields = ['id', 'url', 'result', 'generated_at', 'privacy', 'project'];
    const record = (names: string[]) => Object.fromEntries(names.map((name) => [name, null]));
    expect(startsInSchemaOrder(record(fields))).toBe(true);
    expect(startsInSchemaOrder(record([...fields, 'score', 'tags']))).toBe(true);
    for (let i = 0; i < fields.length; i++) {
      // One field missing, or two side by side swapped: the order is not the schema's.
      expect(startsInSchemaOrder(record(fields.filter((_, j) => j !== i)))).toBe(false);
      const swapped = [...fields];
      const j = (i + 1) % fields.length;
      [swapped[i], swapped[j]] = [swapped[j], swapped[i]];
      expect(startsInSchemaOrder(record(swapped))).toBe(false);
    }
    expect(startsInSchemaOrder(record(['0', ...fields]))).toBe(false);
    expect(startsInSchemaOrder(record(['extra', ...fields]))).toBe(false);
  });

  it('is used only for records of a body it parsed itself (zod reads objects made elsewhere)', () => {
    const made = { id: 1, url: 'u', result: null, generated_at: null, privacy: 0, project: null };
    Object.defineProperty(made, Symbol('kept by a spread, never by zod'), { value: 1, enumerable: true });
    expect(Object.getOwnPropertySymbols(toReport(made, 200))).toEqual([]);
    const parsed = toReportPage(
      parseJsonBody(200, `[${JSON.stringify(made)}]`),
      { page: 1, perPage: 10 },
      200,
    );
    expect(parsed.reports[0]).toEqual(zod(made));
  });

  it.each([11, 12, 13])('over random and hostile records (seed %i): what zod makes, or nothing', (seed) => {
    const random = mulberry32(seed);
    let read = 0;
    for (let n = 0; n < 400; n++) {
      const value = randomReport(random, { secrets: ['not-registered-0'], secretRate: 0.1 }, n);
      const text = writeJson(random, value, randomWriteOptions(random));
      const record = JSON.parse(text) as unknown;
      const plain = plainReport(record);
      if (plain === undefined) continue;
      read += 1;
      const expected = zod(record);
      expect({ seed, n, text, plain }).toEqual({ seed, n, text, plain: expected });
      expect(keysOf(plain)).toEqual(keysOf(expected));
    }
    // Most records are in the common shape: the comparison must have run on many.
    expect(read).toBeGreaterThan(200);
  });
});
