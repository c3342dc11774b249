/**
 * The CLI's words for errors whose next step differs from the app's: a command to run instead
 * of a screen or button. The core sends a kind, a `reason` and `details` (shared/errors.ts);
 * everything else keeps the core's sentence.
 */
import type { AppError } from '../../shared/errors';
import { PROGRAM } from './context';

/** What the run knows that the error does not: the profile it acts on, once chosen. */
export interface CliErrorContext {
  profileName?: string;
}

/** The sentence the CLI prints for an error. */
export function cliErrorMessage(error: AppError, context: CliErrorContext = {}): string {
  const { profileName } = context;
  // The app offers "this session only", which means nothing to a process that ends right away.
  if (error.kind === 'keychain_unavailable') {
    return 'The system keychain could not be used, so the API key could not be read or saved. Unlock the keychain (or install one: on Linux GNOME Keyring or KWallet with libsecret) and try again, or work without a profile by setting REPORT_DESK_API_KEY and --base-url.';
  }
  if (error.reason === 'sync_running') {
    const which = profileName !== undefined ? `the profile "${profileName}"` : 'this connection';
    return `A sync of ${which} is already running in another ReportDesk window or command; wait for it to finish, then run "${PROGRAM} cache sync" again.`;
  }
  const keyOf = error.details?.profileName ?? profileName;
  if (error.reason === 'no_key_stored' && keyOf !== undefined) {
    return `No API key is stored for the profile "${keyOf}". Remove it (${PROGRAM} profiles remove "${keyOf}" --yes) and add it again with its key.`;
  }
  if (error.reason === 'nothing_cached' && error.details?.cause !== undefined) {
    return `${error.details.cause.message} Nothing for this is in the offline cache yet; once the service can be reached, run "${PROGRAM} cache sync" to keep every report available offline.`;
  }
  return error.message;
}
