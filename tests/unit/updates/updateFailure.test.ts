/** electron-updater's errors as the reasons the front ends word. */
import { describe, expect, it } from 'vitest';
import { UpdateFailure, updateFailureReason } from '../../../electron/core/updates/updateFailure';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('updateFailureReason', () => {
  it('keeps the reason of our own refusals', () => {
    expect(updateFailureReason(new UpdateFailure('signature_missing'), 'download')).toBe('signature_missing');
    expect(new UpdateFailure('insecure_feed').message).toBe('update refused: insecure_feed');
  });

  it('a sha512 mismatch (DigestTransform) or the X-Checksum-Sha2 header disagreeing', () => {
    expect(updateFailureReason(coded('ERR_CHECKSUM_MISMATCH'), 'download')).toBe('checksum_mismatch');
    expect(updateFailureReason(new Error('checksum mismatch: expected a but got b'), 'download')).toBe(
      'checksum_mismatch',
    );
  });

  it('a manifest electron-updater cannot use', () => {
    for (const code of [
      'ERR_UPDATER_INVALID_VERSION',
      'ERR_UPDATER_INVALID_UPDATE_INFO',
      'ERR_UPDATER_NO_FILES_PROVIDED',
      'ERR_UPDATER_NO_CHECKSUM',
    ]) {
      expect(updateFailureReason(coded(code), 'check'), code).toBe('feed_not_manifest');
    }
  });

  it('anything else: the feed could not be reached, or the download failed', () => {
    expect(updateFailureReason(coded('ECONNREFUSED'), 'check')).toBe('feed_unreachable');
    expect(updateFailureReason(coded('ECONNRESET'), 'download')).toBe('download_failed');
    expect(updateFailureReason('text', 'check')).toBe('feed_unreachable');
    expect(updateFailureReason(null, 'download')).toBe('download_failed');
    expect(updateFailureReason({ code: 42 }, 'check')).toBe('feed_unreachable');
  });
});
