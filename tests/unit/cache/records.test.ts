import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectOf, stripSecrets } from '../../../electron/core/cache/records';
import { ReportCache } from '../../../electron/core/cache/reportCache';
import { normalizeListQuery } from '../../../shared/report';

const T = '2024-05-01T10:00:00.000Z';
import { keychainUnavailable } from '../../../electron/core/keys/keyStore';

describe('the order of report ids in the cache', () => {
  // Behaviour, not the storage trick: a list sorted by id comes back as the service sorts it.
  let dir: string;
  let cache: ReportCache;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reportdesk-id-order-'));
    cache = ReportCache.open(join(dir, 'cache.sqlite'));
  });
  afterEach(() => {
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts integer ids in numeric order (past 2^53 too), then the other ids as text', () => {
    const ids = ['10', 'abc-1', '9', '123456789012345678', '100', '-5', '2', '123456789012345677'];
    for (const id of ids) cache.putReport('p', { id, url: `https://r${id}.example` }, T);
    const sorted = (sort: 'asc' | 'desc') =>
      cache.query('p', normalizeListQuery({ sort_by: 'id', sort })).page.reports.map((r) => r.id);
    const ascending = ['2', '9', '10', '100', '123456789012345677', '123456789012345678', '-5', 'abc-1'];
    expect(sorted('asc')).toEqual(ascending);
    expect(sorted('desc')).toEqual([...ascending].reverse());
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

describe('keychainUnavailable', () => {
  it('says what to do on each platform and offers a session-only key', () => {
    expect(keychainUnavailable('linux').message).toMatch(/Secret Service.*GNOME Keyring.*KWallet.*libsecret/);
    expect(keychainUnavailable('darwin').message).toMatch(/login keychain/);
    expect(keychainUnavailable('win32').message).toMatch(/Credential Manager/);
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(keychainUnavailable(platform).message).toMatch(/this session only/);
    }
    // The app words it by the platform it names.
    expect(keychainUnavailable('freebsd')).toMatchObject({
      kind: 'keychain_unavailable',
      code: 'keychain.unavailable',
      values: { platform: 'other' },
    });
  });
});
