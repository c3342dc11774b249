import { describe, expect, it } from 'vitest';
import { findDeepLinkInArgv, parseDeepLink } from '../../../electron/core/desktop/deepLink';
import { reportLink } from '../../../shared/links';

describe('parseDeepLink', () => {
  it.each([
    ['reportdesk://report/12', '/reports/12'],
    ['reportdesk://report/12/', '/reports/12'],
    ['REPORTDESK://Report/abc-DEF_9', '/reports/abc-DEF_9'],
    ['reportdesk://report/%61bc', '/reports/abc'],
  ])('maps %s to %s', (url, path) => expect(parseDeepLink(url)).toEqual({ path, profileId: null }));

  it('reads the profile a link names, and round-trips a link made by reportLink', () => {
    expect(parseDeepLink('reportdesk://report/12?profile=p_Ab-9')).toEqual({
      path: '/reports/12',
      profileId: 'p_Ab-9',
    });
    expect(parseDeepLink(reportLink('abc-7', 'prof1'))).toEqual({
      path: '/reports/abc-7',
      profileId: 'prof1',
    });
    expect(parseDeepLink(reportLink('abc-7', null))).toEqual({ path: '/reports/abc-7', profileId: null });
  });

  it.each([
    'reportdesk://report/',
    'reportdesk://report',
    'reportdesk://report/12/edit',
    'reportdesk://report/..%2F..%2Fsettings',
    'reportdesk://report/%2e%2e',
    'reportdesk://report/a%2Fb',
    'reportdesk://report/<script>',
    'reportdesk://report/%E0%A4%A',
    'reportdesk://report/' + '1'.repeat(65),
    'reportdesk://settings/1',
    'reportdesk://user:pw@report/1',
    'reportdesk://report:99/1',
    'https://report/1',
    'app://reportdesk/#/reports/1',
    'reportdesk:report/1',
    'reportdesk://report/1?profile=',
    'reportdesk://report/1?profile=../x',
    'reportdesk://report/1?profile=a&profile=b',
    'reportdesk://report/1?profile=' + 'p'.repeat(65),
    '',
  ])('refuses %s', (url) => expect(parseDeepLink(url)).toBeNull());
});

describe('findDeepLinkInArgv', () => {
  it('finds the link among Chromium switches and the app path', () => {
    expect(
      findDeepLinkInArgv(['/opt/ReportDesk/reportdesk', '--no-sandbox', '--', 'reportdesk://report/5']),
    ).toBe('reportdesk://report/5');
  });

  it('answers null when there is none', () => {
    expect(findDeepLinkInArgv(['/usr/bin/electron', 'dist/electron/main.cjs'])).toBeNull();
  });
});
