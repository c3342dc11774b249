import { describe, expect, it } from 'vitest';
import { failureForStatus, type RequestContext } from '../../../electron/core/api/failures';
import { createLogger, memorySink, registerSecret } from '../../../electron/core/log';

const context: RequestContext = {
  method: 'POST',
  path: '/api/v1/reports',
  action: 'create',
  host: 'service.example',
};

function logOnce(fields: Record<string, unknown>, message = 'request sent'): string {
  const sink = memorySink();
  createLogger('test', sink).info(message, fields);
  expect(sink.lines).toHaveLength(1);
  return sink.lines[0];
}

describe('a key that JSON escaping disguises from the redactor', () => {
  it.each([
    ['a double quote', 'rk_live"quote9f2a7c'],
    ['a backslash', 'rk_live\\slash4b81e0'],
    ['both and a newline', 'rk_"mix\\ed\n51cd'],
  ])('a key holding %s is not written in the fields of a log line', (_what, key) => {
    registerSecret(key);
    const line = logOnce({ detail: `sent ${key} to the service`, nested: { list: [key] } });
    // Neither the raw key nor its JSON-escaped form may appear.
    expect(line).not.toContain(key);
    expect(line).not.toContain(JSON.stringify(key).slice(1, -1));
    expect(line).toContain('[redacted]');
  });

  it('a key in the message itself is redacted too', () => {
    const key = 'rk_msg"\\key0d9e';
    registerSecret(key);
    const sink = memorySink();
    createLogger('test', sink).warn(`failed with ${key}`);
    expect(sink.lines[0]).not.toContain(key);
  });

  it('a password inside a longer key does not leave the rest of the key behind', () => {
    registerSecret('innr');
    registerSecret('outer-innr-tail-77');
    const line = logOnce({ detail: 'outer-innr-tail-77' });
    expect(line).not.toContain('tail-77');
  });
});

describe('a short report password that the length threshold let through', () => {
  it('a 3-character password logged as a value is redacted', () => {
    registerSecret('q7!');
    const line = logOnce({ attempt: 'q7!', other: ['q7!'] });
    expect(line).not.toContain('q7!');
  });

  it('a 1-character password is redacted as a whole value but ordinary prose is left alone', () => {
    registerSecret('a');
    const line = logOnce({ password_hint: 'a', note: 'a cached page was shown' });
    expect(line).toContain('a cached page was shown');
    expect(line).not.toMatch(/"password_hint":"a"/);
  });
});

describe('a careless service that quotes the sent password back', () => {
  const quoting = (password: string) =>
    JSON.stringify({
      message: `The password ${password} is too weak.`,
      errors: { password: [`"${password}" must be at least 8 characters.`] },
    });

  it.each([['xy'], ['Z'], ['s3cr3t-long-pass']])(
    'a 422 quoting the password %s shows it in neither the message nor the field errors',
    (password) => {
      const { error } = failureForStatus(
        422,
        new Headers(),
        quoting(password),
        { ...context, sentSecrets: [password] },
        0,
      );
      expect(error.message).toContain('The password [redacted] is too weak.');
      expect(error.fieldErrors?.password).toEqual(['"[redacted]" must be at least 8 characters.']);
    },
  );

  // A 5xx is quoted by its JSON `message` or its HTML <title> only; both are scrubbed.
  it.each([
    ['a JSON reply', JSON.stringify({ message: 'bad password: pw1' })],
    ['an HTML page', '<html><head><title>bad password: pw1</title></head><body>pw1</body></html>'],
  ])('a 500 quoting the password in %s is scrubbed', (_shape, body) => {
    const { error } = failureForStatus(500, new Headers(), body, { ...context, sentSecrets: ['pw1'] }, 0);
    expect(error.message).not.toContain('pw1');
    expect(error.message).toContain('bad password: [redacted]');
  });

  it('without a sent password the same words are shown as they are', () => {
    const { error } = failureForStatus(422, new Headers(), quoting('xy'), context, 0);
    expect(error.message).toContain('The password xy is too weak.');
  });
});
