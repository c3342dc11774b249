/** The CLI's exit codes, one per kind of failure a script may want to branch on. */
import type { ErrorKind } from '../../shared/errors';

export const EXIT_CODES = {
  ok: 0,
  usage: 2,
  keyRejected: 3,
  notFound: 4,
  inputRejected: 5,
  network: 6,
  rateLimited: 7,
  /** Any other service error, a reply we cannot read, the keychain, the data folder. */
  serviceError: 8,
  /** A sync of the same profile (or a long profile change) is running in another process: try again once it has finished. */
  busy: 9,
} as const;

export function exitCodeFor(kind: ErrorKind): number {
  switch (kind) {
    case 'invalid_input':
    case 'insecure_url':
    case 'no_profile':
      return EXIT_CODES.usage;
    case 'unauthorized':
    case 'forbidden':
      return EXIT_CODES.keyRejected;
    case 'not_found':
      return EXIT_CODES.notFound;
    case 'validation':
      return EXIT_CODES.inputRejected;
    case 'network':
    case 'timeout':
    case 'offline':
      return EXIT_CODES.network;
    case 'rate_limited':
      return EXIT_CODES.rateLimited;
    case 'busy':
      return EXIT_CODES.busy;
    // Neither a usage mistake nor the service's answer: the machine's keychain.
    case 'keychain_unavailable':
      return EXIT_CODES.serviceError;
    default:
      return EXIT_CODES.serviceError;
  }
}
