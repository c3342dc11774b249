/**
 * The scrubber's rules one by one (secrets.ts, in `npm run mutation` since issue 22): each
 * spelling of a secret-looking name, the cache text's check, numbers that equal a secret, the
 * fields whose values are never rewritten, and the caller's own extra secrets.
 */
import { describe, expect, it } from 'vitest';
import { registerSecret } from '../../electron/core/log';
import { REDACTED, isSecretFieldName, scrubSecrets, textMayHoldSecrets } from '../../electron/core/secrets';

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
  'api key',
  'private key',
];

describe('names', () => {
  it.each(SECRET_NAMES)('%s is a secret-looking name', (name) => {
    expect(isSecretFieldName(name)).toBe(true);
  });

  it.each(PLAIN_NAMES)('%s is not', (name) => {
    expect(isSecretFieldName(name)).toBe(false);
  });
});

describe('textMayHoldSecrets (the cache text’s check)', () => {
  it.each(SECRET_NAMES)('finds the key %s, with or without space before the colon', (name) => {
    expect(textMayHoldSecrets(`{"id":"1","${name}":"v"}`)).toBe(true);
    expect(textMayHoldSecrets(`{"id":"1","${name}" :"v"}`)).toBe(true);
    // pass, pin and bearer count only as the whole name.
    expect(textMayHoldSecrets(`{"id":"1","x-${name}-y":"v"}`)).toBe(!/^(pass|pin|bearer)$/i.test(name));
  });

  it.each(PLAIN_NAMES)('leaves the key %s, and secret-looking words in values, alone', (name) => {
    expect(textMayHoldSecrets(`{"id":"1","${name}":"https://a.example/reset-password?token=1"}`)).toBe(false);
  });

  it('sees through a name spelled with \\u, or cut by an escaped quote', () => {
    expect(textMayHoldSecrets('{"id":"1","\\u0074oken":"v"}')).toBe(true);
    expect(textMayHoldSecrets('{"id":"1","password\\"x":"v"}')).toBe(true);
    expect(JSON.parse('{"password\\"x":"v"}')).toEqual({ 'password"x': 'v' });
  });

  it('finds a known secret in the text', () => {
    expect(textMayHoldSecrets(`{"id":"1","n":${NUMERIC}}`)).toBe(true);
    expect(textMayHoldSecrets('{"id":"1","n":7351}')).toBe(false);
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
