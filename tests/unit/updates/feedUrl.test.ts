/** Where update requests may go: https anywhere, http only to this computer, no credentials. */
import { describe, expect, it } from 'vitest';
import { checkFeedUrl } from '../../../electron/core/updates/feedUrl';

describe('checkFeedUrl', () => {
  it.each([
    'https://updates.reportdesk.example/linux/',
    ' https://updates.reportdesk.example ',
    'http://127.0.0.1:8080/feed/',
    'http://localhost:3000/',
    'http://[::1]:9000/',
  ])('accepts %s', (address) => {
    const check = checkFeedUrl(address);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.url.href).toBe(new URL(address.trim()).href);
  });

  it.each([
    ['http://updates.reportdesk.example/', 'insecure'],
    ['http://10.0.0.1/', 'insecure'],
    ['ftp://127.0.0.1/', 'insecure'],
    ['file:///srv/feed/', 'insecure'],
    ['https://user:pw@updates.reportdesk.example/', 'credentials'],
    ['https://token@updates.reportdesk.example/', 'credentials'],
    ['http://user@127.0.0.1/', 'credentials'],
    ['https://:pw@updates.reportdesk.example/', 'credentials'],
    ['updates.reportdesk.example', 'not_a_url'],
    ['', 'not_a_url'],
  ])('refuses %s (%s)', (address, problem) => {
    expect(checkFeedUrl(address)).toEqual({ ok: false, problem });
  });
});
