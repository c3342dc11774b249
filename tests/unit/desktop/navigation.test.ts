import { describe, expect, it } from 'vitest';
import { externalUrlToOpen, isNavigationAllowed } from '../../../electron/core/desktop/navigation';

describe('externalUrlToOpen', () => {
  it.each([
    ['https://example.com/report?id=1', 'https://example.com/report?id=1'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://Example.COM/a b', 'https://example.com/a%20b'],
  ])('opens the http(s) address %s in the browser', (url, expected) => {
    expect(externalUrlToOpen(url)).toBe(expected);
  });

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'app://reportdesk/index.html',
    'smb://server/share',
    'mailto:someone@example.com',
    'https://bank.example@evil.example/',
    'https://user:pass@example.com/',
    'not a url',
    'https://example.com/' + 'a'.repeat(5000),
  ])('refuses %s', (url) => expect(externalUrlToOpen(url)).toBeNull());
});

describe('isNavigationAllowed', () => {
  it('allows the app origin and nothing else', () => {
    expect(isNavigationAllowed('app://reportdesk/index.html#/account', 'app://reportdesk')).toBe(true);
    expect(isNavigationAllowed('https://example.com/', 'app://reportdesk')).toBe(false);
    expect(isNavigationAllowed('file:///index.html', 'app://reportdesk')).toBe(false);
  });
});
