import { describe, expect, it } from 'vitest';
import { checkExternalUrl } from '../../shared/externalUrl';

describe('checkExternalUrl', () => {
  it('opens http(s) addresses in their normalised form', () => {
    expect(checkExternalUrl('https://example.com/report?id=1')).toEqual({
      ok: true,
      href: 'https://example.com/report?id=1',
    });
    expect(checkExternalUrl('HTTP://Example.com')).toEqual({ ok: true, href: 'http://example.com/' });
  });

  it.each([
    ['not a url', 'not_a_url'],
    [42, 'not_a_url'],
    ['file:///etc/passwd', 'not_web'],
    ['javascript:alert(1)', 'not_web'],
    ['https://bank.example@evil.example/', 'credentials'],
    ['https://user:pass@example.com/', 'credentials'],
    ['https://example.com/' + 'a'.repeat(5000), 'too_long'],
  ])('refuses %s as %s', (url, reason) => {
    expect(checkExternalUrl(url)).toEqual({ ok: false, reason });
  });
});
