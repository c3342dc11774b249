/**
 * The CLI's words for errors whose next step differs from the app's: a command to run instead
 * of a screen or button. The core sends a kind, a `reason` and `details` (shared/errors.ts);
 * everything else keeps the core's sentence.
 */
import type { AppError } from '../../shared/errors';
import { PROGRAM } from './context';
import { freeText } from './repairWords';

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
  const disk = diskSentence(error);
  if (disk !== null) return disk;
  if (error.reason === 'profiles_damaged' && error.details?.file !== undefined) {
    const { file, asideAs } = error.details;
    const kept =
      asideAs === undefined || asideAs === file ? 'It is kept as it is' : `A copy is kept as ${asideAs}`;
    return `The profiles file ${file} is damaged and there is no backup to restore. ${kept}; nothing is written over it until you agree. Put a good copy of profiles.json back yourself, or start a new, empty list with "${PROGRAM} profiles reset --yes".`;
  }
  if (error.reason === 'nothing_cached' && error.details?.cause !== undefined) {
    return `${error.details.cause.message} Nothing for this is in the offline cache yet; once the service can be reached, run "${PROGRAM} cache sync" to keep every report available offline.`;
  }
  return error.message;
}

/** A full disk or a read-only folder in the CLI's words (null for any other error). */
function diskSentence(error: AppError): string | null {
  const details = error.details;
  if ((error.kind !== 'disk_full' && error.kind !== 'read_only') || details?.folder === undefined)
    return null;
  const where = details.place === 'export' ? details.folder : `the data folder ${details.folder}`;
  const offline = details.offlineReports;
  const kept =
    offline === undefined
      ? ''
      : `: ${offline} ${offline === 1 ? 'report is' : 'reports are'} available offline`;
  if (error.kind === 'disk_full') {
    return `The disk that holds ${where} is full${freeText(details.freeBytes)}. Nothing was lost${kept}; free some space and run it again.`;
  }
  return details.place === 'export'
    ? `The folder ${details.folder} cannot be written to (${details.code ?? 'read-only'}), so nothing was saved. Choose another file with --output, or make the folder writable.`
    : `The data folder ${details.folder} cannot be written to (${details.code ?? 'read-only'}), so nothing was saved; reading still works${kept}. Make the folder writable, or choose another with --data-dir.`;
}
