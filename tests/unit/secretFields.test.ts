/**
 * One test for a secret field, two places that apply it (issue 29): the log sink (log.ts) and
 * the reply scrubber (secrets.ts) both judge a field by redaction.ts's isSecretField. One table
 * of names runs against both: each secret name's value never reaches a log line nor a scrubbed
 * record, at the top and nested; each plain name's value reaches both; a flag under a secret
 * name is kept by both.
 */
import { describe, expect, it } from 'vitest';
import { SPEC_FIELDS } from '../../electron/core/export/exporter';
import { createLogger, memorySink, registerSecret } from '../../electron/core/log';
import { REDACTED, cutSecrets, isSecretFieldName } from '../../electron/core/redaction';
import { scrubSecrets } from '../../electron/core/secrets';

const SECRET = [
  // The issue's own list.
  'access_token',
  'refresh_token',
  'client_secret',
  'passphrase',
  'api_key',
  'password',
  'authorization',
  'token',
  // Other spellings of the same words.
  'Access_Token',
  'refreshToken',
  'clientSecret',
  'ClientSecret',
  'PassWord',
  'X-Api-Key',
  'x-api-key',
  'apiKey',
  'APIKey',
  'APIKEY',
  'api key',
  'privatekey',
  'private_key',
  'accessKey',
  'access-key',
  'credentials',
  'user_passwd',
  'password2',
  'new_password',
  'newPassword',
  'forgotpassword',
  'password_confirmation',
  'secretNote',
  'auth.token',
  'csrfToken',
  'tokens',
  'token_count',
  // Separators doubled, an all-capital word before a capitalised one, a digit before a pair.
  'api__key',
  'private--key',
  'TOKENCount',
  'APIKEYHint',
  'v2api_key',
  'Authorization',
  // Secret only as the whole name.
  'pass',
  'PIN',
  'bearer',
  'key',
];
const PLAIN = [
  // A report's own fields.
  ...SPEC_FIELDS,
  'results',
  // False friends: a secret word inside a longer word, or a whole-name word inside a name.
  'tokenizer',
  'tokenized_url',
  'secretary',
  'passed',
  'compass',
  'bypass',
  'passport',
  'pinned',
  'spin',
  'bearer_kind',
  'is_bearer',
  'keynote',
  'keys',
  'monkey',
  'turkey',
  'api',
  'private',
  'access',
];

const VALUE = 'field-value-7Qx9';

function logged(fields: Record<string, unknown>): string {
  const sink = memorySink();
  createLogger('test', sink).info('fields', fields);
  expect(sink.lines).toHaveLength(1);
  return sink.lines[0];
}

describe('a secret field name, by one test', () => {
  it.each(SECRET)('%s: its value reaches neither a log line nor a scrubbed record', (name) => {
    expect(isSecretFieldName(name)).toBe(true);
    const line = logged({ [name]: VALUE, nested: { deeper: [{ [name]: VALUE }] } });
    expect(line).not.toContain(VALUE);
    expect(line).toContain(`"${name}":"[redacted]"`);
    expect(scrubSecrets({ id: '1', [name]: VALUE, nested: { deeper: [{ [name]: VALUE }] } })).toEqual({
      id: '1',
      nested: { deeper: [{}] },
    });
  });

  it.each(PLAIN)('%s: its value reaches both', (name) => {
    expect(isSecretFieldName(name)).toBe(false);
    expect(logged({ [name]: VALUE })).toContain(`"${name}":"${VALUE}"`);
    expect(scrubSecrets({ [name]: VALUE, nested: { [name]: VALUE } })).toEqual({
      [name]: VALUE,
      nested: { [name]: VALUE },
    });
  });

  it.each(['password', 'token_expires', 'api_key'])('%s holding a flag is kept by both', (name) => {
    for (const flag of [true, false, null]) {
      expect(logged({ [name]: flag })).toContain(`"${name}":${String(flag)}`);
      expect(scrubSecrets({ [name]: flag })).toEqual({ [name]: flag });
    }
  });
});

describe('known secrets cut out of text, by one rule', () => {
  it('the longest first in both, so no part of a longer secret is left behind', () => {
    const inner = 'inner-secret-41';
    const outer = `outer-${inner}-secret`;
    registerSecret(inner);
    const text = `said ${outer} and ${inner}`;
    const expected = `said ${REDACTED} and ${REDACTED}`;
    // The caller's own secret (a report's password) with the registered ones.
    expect(scrubSecrets({ note: text }, [outer])).toEqual({ note: expected });
    registerSecret(outer);
    expect(logged({ note: text })).toContain(`"note":"${expected}"`);
    expect(scrubSecrets({ note: text })).toEqual({ note: expected });
  });

  it('an empty secret cuts nothing (a text split at every character would be no text at all)', () => {
    expect(cutSecrets('a text', ['', 'text'])).toBe(`a ${REDACTED}`);
    expect(cutSecrets('a text', [])).toBe('a text');
  });
});
