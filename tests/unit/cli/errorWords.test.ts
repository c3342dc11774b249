import { describe, expect, it } from 'vitest';
import { cliErrorMessage } from '../../../electron/cli/errorWords';
import { appError, englishOf, englishOnlyError } from '../../../shared/errors';

describe("the CLI's words for errors", () => {
  it('offers the environment key where the app offers a session-only key', () => {
    const message = cliErrorMessage(appError('keychain_unavailable'));
    expect(message).toContain('REPORT_DESK_API_KEY and --base-url');
    expect(message).not.toContain('session only');
  });

  it('names the command to run for a running sync, a missing key and an empty offline cache', () => {
    expect(
      cliErrorMessage(appError('sync.running', {}, { reason: 'sync_running' }), { profileName: 'Work' }),
    ).toBe(
      'A sync of the profile "Work" is already running in another ReportDesk window or command; wait for it to finish, then run "report-desk cache sync" again.',
    );
    expect(
      cliErrorMessage(
        appError(
          'profile.no_key_stored',
          { profile: 'Home' },
          { reason: 'no_key_stored', details: { profileName: 'Home' } },
        ),
      ),
    ).toBe(
      'No API key is stored for the profile "Home". Remove it (report-desk profiles remove "Home" --yes) and add it again with its key.',
    );
    expect(
      cliErrorMessage(
        appError(
          'offline.nothing_cached',
          {},
          {
            reason: 'nothing_cached',
            details: { cause: englishOnlyError('timeout', 'The service timed out.') },
          },
        ),
      ),
    ).toBe(
      'The service timed out. Nothing for this is in the offline cache yet; once the service can be reached, run "report-desk cache sync" to keep every report available offline.',
    );
  });

  it("keeps the core's sentence for everything else", () => {
    expect(cliErrorMessage(appError('rate_limited'))).toBe(englishOf({ code: 'rate_limited' }));
    expect(cliErrorMessage(appError('http.rate_limited_wait', { seconds: 1 }))).toBe(
      'The Report Service is receiving too many requests and asked to wait 1 second (HTTP 429). Try again after that.',
    );
  });
});
