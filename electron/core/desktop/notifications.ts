/**
 * When to tell the user, with a system notification, that something happened while they were
 * in another window (nothing is shown while ReportDesk has the focus: the page shows it):
 *  - a full sync they started (every report made available offline) has finished — not the
 *    background syncs of "Keep available offline", which are no news by themselves;
 *  - a refresh found new bad reports or reports that turned bad, for a profile that asked to
 *    be told (off by default): one notification per refresh, never one per report.
 */
import type { EventName, EventPayloads } from '../../../shared/contract';
import type { Words } from '../../../shared/i18n/messages';

export interface NotificationContent {
  title: string;
  body: string;
}

export function notificationFor<E extends EventName>(
  event: E,
  payload: EventPayloads[E],
  windowFocused: boolean,
  words: Words,
): NotificationContent | null {
  if (windowFocused) return null;
  if (event === 'offline:refreshed') return badNews(payload as EventPayloads['offline:refreshed'], words);
  if (event !== 'sync:progress') return null;
  const progress = payload as EventPayloads['sync:progress'];
  if (progress.phase !== 'done' || progress.background) return null;
  const count = progress.total ?? progress.fetched;
  return {
    title: words('notification.sync_done.title'),
    body: words('notification.sync_done.body', { count }),
  };
}

function badNews(
  { summary, notifyBad, profileName }: EventPayloads['offline:refreshed'],
  words: Words,
): NotificationContent | null {
  const count = summary.badNews;
  if (!notifyBad || count === 0) return null;
  return {
    title: words('notification.bad_news.title', { count }),
    body: words('notification.bad_news.body', { count, profile: profileName }),
  };
}
