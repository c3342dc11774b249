/**
 * Why an update check, download or install failed, as a reason each front end words (the
 * Settings screen, the update-check command). electron-updater's own errors are mapped here
 * by their codes; ours carry the reason.
 */
import type { UpdateFailureReason } from '../../../shared/contract';

export class UpdateFailure extends Error {
  constructor(readonly reason: UpdateFailureReason) {
    super(`update refused: ${reason}`);
    this.name = 'UpdateFailure';
  }
}

/** electron-updater's codes for a manifest it cannot use (builder-util-runtime newError). */
const NOT_A_MANIFEST_CODES = new Set([
  'ERR_UPDATER_INVALID_VERSION',
  'ERR_UPDATER_INVALID_UPDATE_INFO',
  'ERR_UPDATER_NO_FILES_PROVIDED',
  'ERR_UPDATER_NO_CHECKSUM',
]);

/**
 * The reason for anything a check or a download threw; `otherwise` (a feed that cannot be
 * reached, a download that failed) for what is none of ours nor a known electron-updater code.
 */
export function updateFailureReason(
  thrown: unknown,
  otherwise: 'feed_unreachable' | 'download_failed',
): UpdateFailureReason {
  if (thrown instanceof UpdateFailure) return thrown.reason;
  const code = (thrown as { code?: unknown } | null)?.code;
  // DigestTransform's sha512 mismatch, or the X-Checksum-Sha2 header disagreeing with the manifest.
  if (code === 'ERR_CHECKSUM_MISMATCH' || /checksum mismatch/i.test(String(thrown)))
    return 'checksum_mismatch';
  if (NOT_A_MANIFEST_CODES.has(code as string)) return 'feed_not_manifest';
  return otherwise;
}
