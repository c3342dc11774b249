/**
 * The reply fast path (issue 22): the scrubber's walk is skipped for a reply that certainly
 * holds nothing it would remove. Names are judged on the parsed keys, known secrets looked for
 * in the text. Proved three ways: the classic holes (a name spelled with \u escapes, a secret
 * with some of its "/" escaped, a number written 7.3519e4…) each come out scrubbed; replies
 * that hold nothing stay on the fast path; and over random and hostile replies the output is
 * exactly the slow path's (zod, then the scrubber on every record).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseJsonBody, toAccount, toReport, toReportPage } from '../../../electron/core/api/responses';
import { registerSecret } from '../../../electron/core/log';
import { jsonMayHoldSecrets } from '../../../electron/core/secrets';
import { AccountSchema, ReportSchema } from '../../../shared/report';
import { AppFailure } from '../../../shared/errors';
import {
  mulberry32,
  pick,
  randomObject,
  randomReport,
  randomWriteOptions,
  writeJson,
} from '../../helpers/hostileJson';

const walks = vi.hoisted(() => ({
  count: 0,
  scrub: undefined as undefined | (<T>(value: T) => T),
}));
vi.mock('../../../electron/core/secrets', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../electron/core/secrets')>();
  walks.scrub = actual.scrubSecrets;
  return {
    ...actual,
    scrubSecrets: <T>(value: T, extraSecrets?: readonly string[]): T => {
      walks.count += 1;
      return actual.scrubSecrets(value, extraSecrets);
    },
  };
});

const KEY = 'sk-live-reply-fast-path-0099';
const SLASHED = 'k3y/with/slashes-0042';
const QUOTED = 'pa"ss\\word-77';
const ACCENTED = 'pässwörd-ü-99';
const NUMERIC = '73519';
const SECRETS = [KEY, SLASHED, QUOTED, ACCENTED, NUMERIC];
for (const secret of SECRETS) registerSecret(secret);

const REQUESTED = { page: 1, perPage: 10 };
const LEAK = 'leaked-value-31337';

/** Every way a reply body is read into records: a page, one report, the account. */
function readAllWays(record: string): unknown[] {
  return [
    toReportPage(parseJsonBody(200, `{"data":[${record}],"meta":{"total":1}}`), REQUESTED, 200).reports,
    toReport(parseJsonBody(200, `{"data":${record}}`), 200),
    toAccount(parseJsonBody(200, record), 200),
  ];
}

beforeEach(() => {
  walks.count = 0;
});

describe('the fast path never lets a secret through', () => {
  it.each([
    ['a name spelled with a \\u escape', '"pass\\u0077ord"'],
    ['a name begun with a \\u escape', '"\\u0050ASSWORD"'],
    ['a name in another case', '"PassWord"'],
    ['a name with a dash', '"API-KEY"'],
    ['a name with a space before its colon', '"token" '],
    ['the short names, exactly', '"PIN"'],
    ['a name behind an escaped tab', '"\\tsecret"'],
  ])('%s', (_, name) => {
    for (const output of readAllWays(`{"id":1,"url":"https://a.example",${name}:"${LEAK}"}`)) {
      expect(JSON.stringify(output)).not.toContain(LEAK);
    }
  });

  it('a name deep inside arrays and objects, or written twice (the last one counts)', () => {
    for (const record of [
      `{"id":1,"url":"u","nested":{"deeper":[{"keep":1},{"Access_Token":"${LEAK}"}]}}`,
      `{"id":1,"url":"u","password":null,"password":"${LEAK}"}`,
      `{"id":1,"url":"u","note\\"":"x","secret":"${LEAK}"}`,
    ]) {
      for (const output of readAllWays(record)) expect(JSON.stringify(output)).not.toContain(LEAK);
    }
  });

  it.each([
    ['as it is', `"https://x.example/?k=${SLASHED}"`],
    ['with every "/" escaped, as PHP writes', `"${SLASHED.replaceAll('/', '\\/')}"`],
    ['with only some "/" escaped', `"${SLASHED.replace('/', '\\/')}"`],
    ['with a letter written as \\u', `"${SLASHED.replace('a', '\\u0061')}"`],
    ['as a key', `{"${SLASHED}":1}`],
    ['with its quote and backslash escaped', JSON.stringify(QUOTED)],
    ['with its accents as they are', `"${ACCENTED}"`],
    ['with its accents escaped', `"p\\u00e4ssw\\u00f6rd-\\u00fc-99"`],
  ])('a known secret %s', (_, value) => {
    for (const output of readAllWays(`{"id":1,"url":"https://a.example","echo":${value}}`)) {
      const text = JSON.stringify(output);
      for (const secret of [SLASHED, QUOTED, ACCENTED])
        expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
    }
  });

  it.each(['73519', '73519.0', '7.3519e4', '735190E-1', '[73519.00]', '{"n":[1,{"m":7351.9e1}]}'])(
    'a secret that reads as a number, written %s',
    (value) => {
      for (const output of readAllWays(`{"id":1,"url":"https://a.example","score":${value}}`)) {
        expect(JSON.stringify(output)).not.toContain(NUMERIC);
      }
    },
  );
});

describe('replies that hold nothing to remove stay on the fast path', () => {
  it.each([
    ['every "/" escaped, as PHP writes', '{"id":1,"url":"https:\\/\\/a.example\\/reset-password"}'],
    [
      'secret-looking names holding flags',
      '{"id":1,"url":"u","password":null,"password_protected":true,"token":false}',
    ],
    [
      'look-alike names',
      '{"id":1,"url":"u","passed":1,"compass":"n","keynote":"k","pinned":2,"bearer_kind":"x"}',
    ],
    [
      'a secret cut short, and a number close to one',
      `{"id":1,"url":"u","note":"${KEY.slice(0, -1)}","n":73518}`,
    ],
    ['spaces between tokens', '{ "id" : 1 ,\n "url" : "u" , "tags" : [ "a" , { "deep" : [ 1 ] } ] }'],
  ])('%s', (_, record) => {
    const outputs = readAllWays(record);
    expect(walks.count).toBe(0);
    expect(outputs[1]).toMatchObject({ id: '1' });
  });

  it('judges a body whose secret-looking field holds a value by walking it', () => {
    expect(jsonMayHoldSecrets('{}', { a: [{ b: { token: 'x' } }] })).toBe(true);
    expect(jsonMayHoldSecrets('{}', { a: [{ b: { token: null, pass: false } }] })).toBe(false);
    expect(jsonMayHoldSecrets('{}', [1, [2, [73519]]])).toBe(true);
    expect(jsonMayHoldSecrets('{}', { n: 73519.5, m: '73519' })).toBe(false);
  });
});

/** What the client answered before the fast paths: zod on every record, then the scrubber. */
function slowRecords(text: string, kind: 'page' | 'account'): unknown[] | 'refused' {
  const json = JSON.parse(text) as { data: unknown[] };
  if (kind === 'account') {
    const parsed = AccountSchema.safeParse(json);
    return parsed.success ? [walks.scrub!(parsed.data)] : 'refused';
  }
  const out: unknown[] = [];
  for (const item of json.data) {
    const parsed = ReportSchema.safeParse(item);
    if (!parsed.success) return 'refused';
    out.push(walks.scrub!(parsed.data));
  }
  return out;
}

function fastRecords(text: string, kind: 'page' | 'account'): unknown[] | 'refused' {
  try {
    const body = parseJsonBody(200, text);
    return kind === 'account' ? [toAccount(body, 200)] : toReportPage(body, REQUESTED, 200).reports;
  } catch (thrown) {
    if (thrown instanceof AppFailure && thrown.error.kind === 'bad_response') return 'refused';
    throw thrown;
  }
}

/** Equal values with their keys in the same order, at every depth (toEqual ignores order). */
function keyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keyOrder);
  if (typeof value !== 'object' || value === null) return value;
  return Object.keys(value).map((key) => [key, keyOrder((value as Record<string, unknown>)[key])]);
}

describe('over random and hostile replies, the output is the slow path’s', () => {
  it.each([1, 2, 3, 4])('seed %i: 250 replies, both paths taken', (seed) => {
    const random = mulberry32(seed);
    let fast = 0;
    let slow = 0;
    for (let n = 0; n < 250; n++) {
      const options = { secrets: SECRETS, secretRate: pick(random, [0, 0, 0.05, 0.3]) };
      const kind = random() < 0.8 ? 'page' : 'account';
      const value =
        kind === 'page'
          ? {
              data: Array.from({ length: 1 + Math.floor(random() * 4) }, (_, i) =>
                randomReport(random, options, i + 1),
              ),
            }
          : randomObject(random, options, 3);
      const text = writeJson(random, value, randomWriteOptions(random));
      const expected = slowRecords(text, kind);
      walks.count = 0;
      const actual = fastRecords(text, kind);
      expect({ seed, n, text, output: actual }).toEqual({ seed, n, text, output: expected });
      expect(keyOrder(actual)).toEqual(keyOrder(expected));
      if (actual !== 'refused') {
        if (walks.count === 0) fast += 1;
        else slow += 1;
      }
    }
    // The corpus must exercise both paths, or the comparison above proves nothing.
    expect({ fast: fast > 50, slow: slow > 50 }).toEqual({ fast: true, slow: true });
  });
});
