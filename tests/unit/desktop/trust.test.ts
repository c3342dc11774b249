import { describe, expect, it } from 'vitest';
import { isTrustedFrameUrl, isTrustedInvokeEvent } from '../../../electron/core/desktop/trust';

const APP = 'app://reportdesk';

describe('isTrustedFrameUrl', () => {
  it.each([
    'app://reportdesk/index.html',
    'app://reportdesk/',
    'app://reportdesk/index.html#/reports/12',
    'app://ReportDesk/x',
  ])('trusts a page of the app origin: %s', (url) => expect(isTrustedFrameUrl(url, APP)).toBe(true));

  it.each([
    'app://other/index.html',
    'app://reportdesk.evil.example/',
    'app://reportdesk:8080/',
    'app://user@reportdesk/',
    'https://reportdesk/',
    'http://127.0.0.1:5173/',
    'file:///app/dist/renderer/index.html',
    'devtools://devtools/bundled/inspector.html',
    'about:blank',
    'chrome-error://chromewebdata/',
    '',
    'not a url',
  ])('refuses %s', (url) => expect(isTrustedFrameUrl(url, APP)).toBe(false));
});

describe('isTrustedInvokeEvent', () => {
  const options = { appOrigin: APP, windowContentsId: 3 };
  const event = (url: string, id = 3, parent: unknown = null) => ({
    senderFrame: { url, parent },
    sender: { id },
  });

  it('trusts the top frame of the main window showing the app', () => {
    expect(isTrustedInvokeEvent(event('app://reportdesk/index.html'), options)).toBe(true);
  });

  it('refuses another webContents, an iframe, a missing frame, or no window at all', () => {
    expect(isTrustedInvokeEvent(event('app://reportdesk/index.html', 4), options)).toBe(false);
    expect(isTrustedInvokeEvent(event('app://reportdesk/index.html', 3, { url: 'x' }), options)).toBe(false);
    expect(isTrustedInvokeEvent({ senderFrame: null, sender: { id: 3 } }, options)).toBe(false);
    expect(
      isTrustedInvokeEvent(event('app://reportdesk/index.html'), { appOrigin: APP, windowContentsId: null }),
    ).toBe(false);
  });
});
