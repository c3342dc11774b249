/** electron-updater's errors as the reasons the front ends word. */
import { describe, expect, it } from 'vitest';
import { UpdateFailure, updateFailureReason } from '../../../electron/core/updates/updateFailure';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('updateFailureReason', () => {
  it('keeps the reason of our own refusals', () => {
    expect(updateFailureReason(new UpdateFailure('signature_missing'), 'download_failed')).toBe(
      'signature_missing',
    );
    expect(new UpdateFailure('insecure_feed').message).toBe('update refused: insecure_feed');
    expect(String(new UpdateFailure('insecure_feed'))).toBe('UpdateFailure: update refused: insecure_feed');
  });

  it('a sha512 mismatch (DigestTransform) or the X-Checksum-Sha2 header disagreeing', () => {
    expect(updateFailureReason(coded('ERR_CHECKSUM_MISMATCH'), 'download_failed')).toBe('checksum_mismatch');
    expect(updateFailureReason(new Error('checksum mismatch: expected a but got b'), 'download_failed')).toBe(
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
      expect(updateFailureReason(coded(code), 'feed_unreachable'), code).toBe('feed_not_manifest');
    }
  });

  it('anything else: the feed could not be reached, or the download failed', () => {
    expect(updateFailureReason(coded('ECONNREFUSED'), 'feed_unreachable')).toBe('feed_unreachable');
    expect(updateFailureReason(coded('ECONNRESET'), 'download_failed')).toBe('download_failed');
    expect(updateFailureReason('text', 'feed_unreachable')).toBe('feed_unreachable');
    expect(updateFailureReason(null, 'download_failed')).toBe('download_failed');
    expect(updateFailureReason({ code: 42 }, 'feed_unreachable')).toBe('feed_unreachable');
    expect(updateFailureReason('checksum mismatch, as text', 'download_failed')).toBe('checksum_mismatch');
  });
});
