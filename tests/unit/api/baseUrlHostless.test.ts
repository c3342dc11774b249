/**
 * shared/baseUrl.ts has no check of its own for an http(s) address without a host: the WHATWG
 * URL parser refuses every such address first (issue 29 removed a guard that could never
 * fire). These are the shapes such an address can take, each refused with the parser's sentence.
 */
import { describe, expect, it } from 'vitest';
import { checkBaseUrl } from '../../../shared/baseUrl';

describe('an http(s) base URL without a host', () => {
  it.each([
    'http://',
    'https://',
    'https://:443',
    'http://@',
    'https://user:pw@',
    'http://[]',
    'https://%20',
  ])('%j is refused as not a valid address', (raw) => {
    expect(checkBaseUrl(raw, true)).toEqual({
      ok: false,
      kind: 'invalid_input',
      problem: { code: 'base_url.invalid' },
    });
  });

  it('three slashes are not an empty host: the parser takes the next segment as the host', () => {
    expect(checkBaseUrl('https:///reports.example.com/base', false)).toEqual({
      ok: true,
      baseUrl: 'https://reports.example.com/base',
    });
  });
});
