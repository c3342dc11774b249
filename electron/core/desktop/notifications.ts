/**
 * When to tell the user, with a system notification, that something happened while they were
 * in another window (nothing is shown while ReportDesk has the focus: the page shows it):
 *  - a full sync they started (every report made available offline) has finished — not the
 *    background syncs of "Keep available offline", which are no news by themselves;
 *  - a refresh found new bad reports or reports that turned bad, for a profile that asked to
 *    be told (off by default): one notification per refresh, never one per report.
 */
import type { EventName, EventPayloads } from '../../../shared/contract';

export interface NotificationContent {
  title: string;
  body: string;
}

export function notificationFor<E extends EventName>(
  event: E,
  payload: EventPayloads[E],
  windowFocused: boolean,
): NotificationContent | null {
  if (windowFocused) return null;
  if (event === 'offline:refreshed') return badNews(payload as EventPayloads['offline:refreshed']);
  if (event !== 'sync:progress') return null;
  const progress = payload as EventPayloads['sync:progress'];
  if (progress.phase !== 'done' || progress.background) return null;
  const count = progress.total ?? progress.fetched;
  return {
    title: 'Reports available offline',
    body: `${count} ${count === 1 ? 'report is' : 'reports are'} now saved on this computer and can be read without a connection.`,
  };
}

function badNews({
  summary,
  notifyBad,
  profileName,
}: EventPayloads['offline:refreshed']): NotificationContent | null {
  const count = summary.badNews;
  if (!notifyBad || count === 0) return null;
  const reports = count === 1 ? '1 report' : `${count} reports`;
  return {
    title: count === 1 ? 'A report turned bad' : 'Reports turned bad',
    body: `${reports} of “${profileName}” ${count === 1 ? 'is' : 'are'} new and bad or turned bad. Open ReportDesk to see what changed.`,
  };
}
