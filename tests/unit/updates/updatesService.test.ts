/** The state the preview and the CLI answer: updates belong to the installed app. */
import { describe, expect, it } from 'vitest';
import { unmanagedUpdates } from '../../../electron/core/updates/updatesService';
import {
  MAX_RELEASE_NOTES_CHARS,
  releaseNotesText,
  viewOf,
} from '../../../electron/core/updates/updateController';

describe('unmanagedUpdates', () => {
  it('answers one state to every call, and changes nothing', async () => {
    const service = unmanagedUpdates('not_installed');
    const expected = {
      managed: false,
      unmanagedReason: 'not_installed',
      currentVersion: null,
      preferences: { automatic: true, channel: 'latest' },
      lastCheckedAt: null,
      phase: 'idle',
      update: null,
      downloadPercent: null,
      failure: null,
      install: 'on-quit',
      restartWaitingFor: null,
    };
    expect(service.status()).toEqual(expected);
    expect(await service.check()).toEqual(expected);
    expect(service.setPreferences({ automatic: false, channel: 'beta' })).toEqual(expected);
    expect(service.restart({ cancelWork: true })).toEqual(expected);
    expect(service.cancelRestart()).toEqual(expected);
    expect(service.beforeQuit()).toBeUndefined();
    expect(service.close()).toBeUndefined();
    // Each answer is its own copy.
    service.status().preferences.automatic = false;
    expect(service.status().preferences.automatic).toBe(true);
    expect(unmanagedUpdates('development', '1.0.0').status()).toMatchObject({
      unmanagedReason: 'development',
      currentVersion: '1.0.0',
    });
  });
});

describe('release notes as text', () => {
  it('a string, or electron-updater’s list of notes per version', () => {
    expect(releaseNotesText('One\r\nTwo  ')).toBe('One\nTwo');
    expect(
      releaseNotesText([
        { version: '1.2.0', note: 'New' },
        { version: '1.1.0', note: null },
      ]),
    ).toBe('1.2.0\nNew\n\n1.1.0');
    expect(releaseNotesText(null)).toBeNull();
    expect(releaseNotesText(undefined)).toBeNull();
    expect(releaseNotesText('  \n \x1b[0m ')).toBeNull();
    expect(releaseNotesText('x'.repeat(MAX_RELEASE_NOTES_CHARS + 5))).toHaveLength(MAX_RELEASE_NOTES_CHARS);
  });

  it('a version as Settings shows it', () => {
    expect(viewOf({ version: '2.0.0', files: [], path: '', sha512: '', releaseDate: '2026-01-02' })).toEqual({
      version: '2.0.0',
      releaseDate: '2026-01-02',
      releaseNotes: null,
    });
    expect(
      viewOf({ version: '2.0.0', files: [], path: '', sha512: '', releaseDate: 7 as unknown as string })
        .releaseDate,
    ).toBeNull();
  });
});
