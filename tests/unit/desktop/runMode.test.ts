/** Development runs keep out of an installed ReportDesk's way: own data folder, no link registration. */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEV_DATA_FOLDER,
  registersDeepLinks,
  userDataOverride,
  type RunMode,
} from '../../../electron/core/desktop/runMode';

const APP_DATA = join('/home', 'ada', '.config');
const mode = (packaged: boolean, env: Record<string, string> = {}, e2e = false): RunMode => ({
  packaged,
  env,
  e2e,
});

describe('userDataOverride', () => {
  it("keeps Electron's own folder (ReportDesk) for the installed app", () => {
    expect(userDataOverride(mode(true), APP_DATA)).toBeNull();
  });

  it('gives a development run its own folder, so it never takes the installed app’s lock or data', () => {
    expect(DEV_DATA_FOLDER).toBe('ReportDesk-dev');
    expect(userDataOverride(mode(false), APP_DATA)).toBe(join(APP_DATA, 'ReportDesk-dev'));
  });

  it('lets REPORT_DESK_DATA_DIR move either', () => {
    for (const packaged of [true, false]) {
      expect(userDataOverride(mode(packaged, { REPORT_DESK_DATA_DIR: 'rel/dir' }), APP_DATA)).toBe(
        resolve('rel/dir'),
      );
    }
  });
});

describe('registersDeepLinks', () => {
  it('registers reportdesk:// from the packaged app', () => {
    expect(registersDeepLinks(mode(true))).toBe(true);
  });

  it('not from a development run, unless asked with REPORT_DESK_REGISTER_LINKS=1', () => {
    expect(registersDeepLinks(mode(false))).toBe(false);
    expect(registersDeepLinks(mode(false, { REPORT_DESK_REGISTER_LINKS: '0' }))).toBe(false);
    expect(registersDeepLinks(mode(false, { REPORT_DESK_REGISTER_LINKS: '1' }))).toBe(true);
  });

  it('never from an end-to-end run', () => {
    expect(registersDeepLinks(mode(true, { REPORT_DESK_REGISTER_LINKS: '1' }, true))).toBe(false);
  });
});
