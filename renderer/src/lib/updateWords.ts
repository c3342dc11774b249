/**
 * The app's sentences for its updates: the core says what happened as reasons; these are the
 * words (Settings › Updates and the ready bar say them).
 */
import type { RunningWork, UpdateChannel, UpdateFailureReason, UpdateStatus } from '../../../shared/contract';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import type { RendererWords } from './i18n';

export const CHANNEL_OPTIONS: readonly { value: UpdateChannel; label: MessageId }[] = [
  { value: 'latest', label: 'updates.channel.stable' },
  { value: 'beta', label: 'updates.channel.beta' },
];

const FAILURES: Record<UpdateFailureReason, MessageId> = {
  insecure_feed: 'updates.failure.insecure_feed',
  feed_unreachable: 'updates.failure.feed_unreachable',
  feed_not_found: 'updates.failure.feed_not_found',
  feed_not_manifest: 'updates.failure.feed_not_manifest',
  signature_missing: 'updates.failure.signature_missing',
  signature_invalid: 'updates.failure.signature_invalid',
  checksum_mismatch: 'updates.failure.checksum_mismatch',
  download_failed: 'updates.failure.download_failed',
  install_failed: 'updates.failure.install_failed',
};

export function failureSentence(words: RendererWords, reason: UpdateFailureReason): string {
  return words(FAILURES[reason]);
}

export function unmanagedSentence(words: RendererWords, reason: UpdateStatus['unmanagedReason']): string {
  switch (reason) {
    case 'development':
      return words('updates.unmanaged.development');
    case 'unsupported_package':
      return words('updates.unmanaged.unsupported_package');
    case 'no_feed':
      return words('updates.unmanaged.no_feed');
    default:
      return words('updates.unmanaged.not_installed');
  }
}

const WORK_WORDS: Record<RunningWork, MessageId> = {
  sync: 'updates.work.sync',
  export: 'updates.work.export',
  changes: 'updates.work.changes',
};

/** "ReportDesk restarts as soon as it is no longer busy: reports are made available offline and …". */
export function waitingSentence(words: RendererWords, work: readonly RunningWork[]): string {
  const list = words.intl.formatList(
    work.map((item) => words(WORK_WORDS[item])),
    { type: 'conjunction' },
  );
  return words('updates.restart_waiting', { list });
}
