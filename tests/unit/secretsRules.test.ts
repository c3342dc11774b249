/**
 * The scrubber's rules one by one (secrets.ts, in `npm run mutation` since issue 22): each
 * spelling of a secret-looking name, the text the cache stores, numbers that equal a secret, the
 * fields whose values are never rewritten, and the caller's own extra secrets.
 */
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../electron/core/log';
import { recordJson } from '../../electron/core/cache/records';
import { REDACTED, isSecretFieldName } from '../../electron/core/redaction';
import { scrubSecrets } from '../../electron/core/secrets';

const NUMERIC = '73519';
registerSecret(NUMERIC);

const SECRET_NAMES = [
  'password',
  'user_passwd',
  'passphrase',
  'refresh_token',
  'clientSecret',
  'api_key',
  'api-key',
  'apikey',
  'APIKEY',
  'privatekey',
  'private_key',
  'private-key',
  'accesskey',
  'access_key',
  'access-key',
  'credentials',
  'Authorization',
  'pass',
  'PIN',
  'bearer',
];
const PLAIN_NAMES = [
  'passed',
  'compass',
  'pinned',
  'spin',
  'bearer_kind',
  'is_bearer',
  'keynote',
  'tokenizer',
  'secretary',
];

describe('names', () => {
  it.each(SECRET_NAMES)('%s is a secret-looking name', (name) => {
    expect(isSecretFieldName(name)).toBe(true);
  });

  it.each(PLAIN_NAMES)('%s is not', (name) => {
    expect(isSecretFieldName(name)).toBe(false);
  });
});

/** What the cache stores for `record`, read back. */
function stored(record: { id: unknown; [field: string]: unknown }): unknown {
  return JSON.parse(recordJson(record));
}

describe('recordJson (the text the cache stores)', () => {
  it.each(SECRET_NAMES)('drops the key %s, and keeps it as a flag', (name) => {
    expect(stored({ id: 1, [name]: 'v', url: 'https://a.example/' })).toEqual({
      id: '1',
      url: 'https://a.example/',
    });
    expect(stored({ id: 1, [name]: true })).toEqual({ id: '1', [name]: true });
  });

  it.each(PLAIN_NAMES)('leaves the key %s, and secret-looking words in values, alone', (name) => {
    const record = { id: '1', [name]: 'https://a.example/reset-password?token=1' };
    expect(recordJson(record)).toBe(JSON.stringify(record));
  });

  it('finds a name however the text spells it, and a name cut by a quote', () => {
    const record = JSON.parse('{"id":"1","\\u0074oken":"v","password\\"x":"w","keep":1}') as { id: string };
    expect(stored(record)).toEqual({ id: '1', keep: 1 });
  });

  it('cuts a known secret out of a value, and drops a number equal to one', () => {
    expect(stored({ id: 1, note: `code ${NUMERIC}!`, n: Number(NUMERIC), m: 7351 })).toEqual({
      id: '1',
      note: `code ${REDACTED}!`,
      m: 7351,
    });
  });
});

describe('scrubSecrets', () => {
  it('drops a field or item holding a number equal to a secret, and redacts such a number alone', () => {
    expect(scrubSecrets({ score: Number(NUMERIC), keep: 1 })).toEqual({ keep: 1 });
    expect(scrubSecrets([Number(NUMERIC), 2])).toEqual([2]);
    expect(scrubSecrets(Number(NUMERIC))).toBe(REDACTED);
    expect(scrubSecrets(73520)).toBe(73520);
    expect(scrubSecrets(true)).toBe(true);
    expect(scrubSecrets({ flag: true, nothing: null })).toEqual({ flag: true, nothing: null });
  });

  it('keeps a flag, and the privacy and results fields, whatever secret their text would read as', () => {
    expect(scrubSecrets({ flag: true, off: false, none: null }, ['true', 'false', 'null'])).toEqual({
      flag: true,
      off: false,
      none: null,
    });
    const record = { privacy: Number(NUMERIC), results: Number(NUMERIC) };
    expect(scrubSecrets(record)).toBe(record);
  });

  it('never rewrites the id, result or date by value, and rewrites every other field', () => {
    const extra = ['decent', '2026-01-01T00:00:00Z', '12345'];
    const record = { id: '12345', result: 'decent', generated_at: '2026-01-01T00:00:00Z', note: 'decent' };
    expect(scrubSecrets(record, extra)).toEqual({
      id: '12345',
      result: 'decent',
      generated_at: '2026-01-01T00:00:00Z',
    });
    expect(scrubSecrets({ url: 'https://a.example/12345' }, extra)).toEqual({
      url: `https://a.example/${REDACTED}`,
    });
  });

  it('uses the caller’s extra secrets from four characters, like the registry', () => {
    expect(scrubSecrets({ a: 'abc and abcd' }, ['abc', 'abcd'])).toEqual({ a: `abc and ${REDACTED}` });
  });
});
