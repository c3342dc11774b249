import { describe, expect, it } from 'vitest';
import { isPermissionGranted } from '../../../electron/core/desktop/permissions';

const APP = 'app://reportdesk';

describe('isPermissionGranted', () => {
  it('lets the app page write to the clipboard (Copy URL)', () => {
    expect(isPermissionGranted('clipboard-sanitized-write', 'app://reportdesk/index.html', APP)).toBe(true);
  });

  it('refuses clipboard writes from any other origin', () => {
    expect(isPermissionGranted('clipboard-sanitized-write', 'https://evil.example/', APP)).toBe(false);
    expect(isPermissionGranted('clipboard-sanitized-write', '', APP)).toBe(false);
  });

  it.each([
    'clipboard-read',
    'media',
    'geolocation',
    'notifications',
    'openExternal',
    'fullscreen',
    'unknown',
  ])('refuses %s even to the app page', (permission) =>
    expect(isPermissionGranted(permission, 'app://reportdesk/index.html', APP)).toBe(false),
  );
});
