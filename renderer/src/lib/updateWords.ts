/**
 * The app's sentences for its updates: the core says what happened as reasons; these are the
 * words (Settings › Updates and the ready bar say them).
 */
import type { RunningWork, UpdateChannel, UpdateFailureReason, UpdateStatus } from '../../../shared/contract';

export const CHANNEL_OPTIONS: readonly { value: UpdateChannel; label: string }[] = [
  { value: 'latest', label: 'Stable' },
  { value: 'beta', label: 'Beta (new versions first)' },
];

export function failureSentence(reason: UpdateFailureReason): string {
  switch (reason) {
    case 'insecure_feed':
      return 'The update server of this build is not a secure (https) address, so ReportDesk did not use it.';
    case 'feed_unreachable':
      return 'The update server could not be reached. ReportDesk tries again in a few hours.';
    case 'feed_not_found':
      return 'The update server has no update information for this version. ReportDesk tries again in a few hours.';
    case 'feed_not_manifest':
      return 'The update server did not answer with update information. ReportDesk tries again in a few hours.';
    case 'signature_missing':
      return 'An update was offered without a signature, so ReportDesk refused it and downloaded nothing.';
    case 'signature_invalid':
      return 'An update was offered that is not signed with the ReportDesk release key, so ReportDesk refused it and downloaded nothing.';
    case 'checksum_mismatch':
      return 'The downloaded update was not the file its signed description names, so ReportDesk deleted it.';
    case 'download_failed':
      return 'The update could not be downloaded. ReportDesk tries again in a few hours.';
    case 'install_failed':
      return 'The update could not be installed. Quit ReportDesk and start it again; the logs folder says more.';
  }
}

export function unmanagedSentence(reason: UpdateStatus['unmanagedReason']): string {
  switch (reason) {
    case 'development':
      return 'This is a development run of ReportDesk: it never checks for updates.';
    case 'unsupported_package':
      return 'This copy of ReportDesk is updated by your system’s package manager, not by ReportDesk itself.';
    case 'no_feed':
      return 'This build of ReportDesk has no update server, so it does not check for updates.';
    default:
      return 'Updates are managed by the installed ReportDesk app; this window does not update itself.';
  }
}

const WORK_WORDS: Record<RunningWork, string> = {
  sync: 'reports are made available offline',
  export: 'the export runs',
  changes: 'your changes are sent',
};

/** "Restarts once reports are made available offline and the export runs" → worded per item. */
export function waitingSentence(work: readonly RunningWork[]): string {
  const words = work.map((item) => WORK_WORDS[item]);
  const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words[0];
  return `ReportDesk restarts as soon as it is no longer busy: ${list}.`;
}
