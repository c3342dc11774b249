/**
 * When to tell the user, with a system notification, that something finished: a full sync
 * (every report made available offline) can take a while, so its end is announced if the user went to
 * another window meanwhile. Nothing is shown while ReportDesk has the focus: the page shows it.
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
  if (windowFocused || event !== 'sync:progress') return null;
  const progress = payload as EventPayloads['sync:progress'];
  if (progress.phase !== 'done') return null;
  const count = progress.total ?? progress.fetched;
  return {
    title: 'Reports available offline',
    body: `${count} ${count === 1 ? 'report is' : 'reports are'} now saved on this computer and can be read without a connection.`,
  };
}
