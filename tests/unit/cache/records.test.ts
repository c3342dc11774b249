import { describe, expect, it } from 'vitest';
import { idSortKey, projectOf, stripSecrets } from '../../../electron/core/cache/records';
import { keychainUnavailableMessage } from '../../../electron/core/keys/keyStore';

describe('idSortKey', () => {
  it('stores integer ids as numbers and other ids as text', () => {
    expect(idSortKey('42')).toBe(42);
    expect(idSortKey('123456789012345678')).toBe(123456789012345678n);
    expect(idSortKey('abc-1')).toBe('abc-1');
    expect(idSortKey('-5')).toBe('-5');
  });

  it('orders numeric ids numerically', () => {
    const ids = ['10', '9', '100', '2'];
    const sorted = [...ids].sort((a, b) => Number(idSortKey(a)) - Number(idSortKey(b)));
    expect(sorted).toEqual(['2', '9', '10', '100']);
  });
});

describe('stripSecrets', () => {
  it('removes password-like keys at every depth and keeps everything else', () => {
    const input = {
      id: '1',
      password: 'hunter22',
      Password: 'x',
      nested: { api_key: 'k', keep: 1, list: [{ secret: 's', name: 'n' }] },
      password_protected: true,
    };
    expect(stripSecrets(input)).toEqual({
      id: '1',
      nested: { keep: 1, list: [{ name: 'n' }] },
      password_protected: true,
    });
    // The input itself is untouched.
    expect(input.password).toBe('hunter22');
  });
});

describe('projectOf', () => {
  it('accepts strings and numbers, and treats blanks as no project', () => {
    expect(projectOf('alpha')).toBe('alpha');
    expect(projectOf(7)).toBe('7');
    expect(projectOf('  ')).toBeNull();
    expect(projectOf(null)).toBeNull();
  });
});

describe('keychainUnavailableMessage', () => {
  it('says what to do on each platform and offers a session-only key', () => {
    expect(keychainUnavailableMessage('linux')).toMatch(/Secret Service.*GNOME Keyring.*KWallet.*libsecret/);
    expect(keychainUnavailableMessage('darwin')).toMatch(/login keychain/);
    expect(keychainUnavailableMessage('win32')).toMatch(/Credential Manager/);
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(keychainUnavailableMessage(platform)).toMatch(/this session only/);
    }
  });
});
