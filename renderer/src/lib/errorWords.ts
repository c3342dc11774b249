/**
 * The app's words for errors whose next step is one of its screens or buttons. The core names
 * no screen: it sends a `reason` and `details`, and the app says where to go (the CLI says which
 * command to run, see electron/cli/errorWords.ts). Everything else keeps the core's sentence.
 */
import type { AppError } from '../../../shared/errors';

export function inAppWords(error: AppError): AppError {
  const { profileName, cause } = error.details ?? {};
  if (error.reason === 'no_key_stored' && profileName !== undefined) {
    return {
      ...error,
      message: `No API key is stored for the profile “${profileName}”. Add it in Keys & profiles.`,
    };
  }
  if (error.reason === 'nothing_cached' && cause !== undefined) {
    return {
      ...error,
      message: `${cause} Nothing for this view is in the offline cache yet; once the service can be reached, use “Make available offline”.`,
    };
  }
  return error;
}
