import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../../electron/core/api/baseUrl';
import { checkBaseUrl, isLoopbackHost } from '../../../shared/baseUrl';
import { AppFailure, englishOf, type AppError } from '../../../shared/errors';

function failureOf(raw: string, allowInsecureHttp = false): AppError {
  try {
    normalizeBaseUrl(raw, allowInsecureHttp);
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(AppFailure);
    return (thrown as AppFailure).error;
  }
  throw new Error(`expected "${raw}" to be refused`);
}

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '127.255.255.255', '::1', '[::1]'])(
    'accepts %s',
    (host) => expect(isLoopbackHost(host)).toBe(true),
  );
  it.each([
    'example.com',
    '128.0.0.1',
    '127.0.0.256',
    '10.0.0.1',
    'localhost.example.com',
    '127.0.0.1.nip.io',
    '::2',
  ])('refuses %s', (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://reports.example.com', 'https://reports.example.com'],
    ['  https://reports.example.com/  ', 'https://reports.example.com'],
    ['https://reports.example.com/base///', 'https://reports.example.com/base'],
    ['https://reports.example.com/base/api/v1', 'https://reports.example.com/base'],
    ['https://reports.example.com/api/v1/', 'https://reports.example.com'],
    ['https://Reports.Example.COM:443/API/V1', 'https://reports.example.com'],
    ['https://reports.example.com:8443/x', 'https://reports.example.com:8443/x'],
    ['http://127.0.0.1:8787/api/v1', 'http://127.0.0.1:8787'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://[::1]:3000/', 'http://[::1]:3000'],
  ])('normalises %j to %j', (raw, expected) => {
    expect(normalizeBaseUrl(raw, false)).toBe(expected);
  });

  it('refuses plain http to another host unless explicitly allowed', () => {
    const error = failureOf('http://reports.example.com');
    expect(error.kind).toBe('insecure_url');
    expect(error.message).toMatch(/reports\.example\.com/);
    expect(error.message).toMatch(/https:\/\//);
    expect(normalizeBaseUrl('http://reports.example.com/api/v1', true)).toBe('http://reports.example.com');
  });

  it.each([
    ['', /Enter the Report Service base URL/],
    ['   ', /Enter the Report Service base URL/],
    ['reports.example.com', /must start with https:\/\//],
    ['ftp://reports.example.com', /must start with https:\/\//],
    ['https://', /not a valid address/],
    ['https://user:secret@reports.example.com', /user name and password/],
    ['https://reports.example.com/?page=2', /cannot contain "\?" or "#"/],
    ['https://reports.example.com/#top', /cannot contain "\?" or "#"/],
  ])('refuses %j with a clear invalid_input sentence', (raw, message) => {
    const error = failureOf(raw);
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/\.$/);
  });

  it('shows a well-formed base URL when the scheme or the address is wrong', () => {
    for (const raw of ['reports.example.com', 'ftp://reports.example.com', 'https://'])
      expect(failureOf(raw).message).toMatch(/, for example https:\/\/reports\.example\.com\.$/);
  });

  it('never echoes credentials pasted into the URL', () => {
    expect(failureOf('https://user:hunter2-secret@reports.example.com').message).not.toContain('hunter2');
  });
});

describe('checkBaseUrl (the rules the renderer and the core share)', () => {
  it.each([
    '',
    'reports.example.com',
    'ftp://reports.example.com',
    'https://',
    'https://user:secret@reports.example.com',
    'https://reports.example.com/?page=2',
    'http://reports.example.com',
  ])('refuses %j with the very code and sentence the core throws', (raw) => {
    const checked = checkBaseUrl(raw, false);
    expect(checked.ok).toBe(false);
    const error = failureOf(raw);
    expect(checked).toEqual({
      ok: false,
      kind: error.kind,
      problem: { code: error.code, ...(error.values ? { values: error.values } : {}) },
    });
    expect(englishOf(checked.ok ? { code: 'internal' } : checked.problem)).toBe(error.message);
  });

  it('accepts what the core accepts, in the same normalised form', () => {
    const raw = ' HTTPS://Reports.Example.com/base/api/v1/ ';
    expect(checkBaseUrl(raw, false)).toEqual({ ok: true, baseUrl: normalizeBaseUrl(raw, false) });
    expect(checkBaseUrl('http://reports.example.com', true)).toEqual({
      ok: true,
      baseUrl: 'http://reports.example.com',
    });
  });
});
