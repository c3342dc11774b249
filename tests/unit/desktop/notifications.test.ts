import { describe, expect, it } from 'vitest';
import type { OfflineRefreshed, SyncProgress, SyncSummary } from '../../../shared/contract';
import { notificationFor } from '../../../electron/core/desktop/notifications';

const progress = (phase: SyncProgress['phase'], fetched = 120, total: number | null = 120): SyncProgress => ({
  profileId: 'p1',
  page: 12,
  lastPage: 12,
  fetched,
  total,
  phase,
});

describe('notificationFor', () => {
  it('announces a finished sync while the window is in the background', () => {
    expect(notificationFor('sync:progress', progress('done'), false)).toEqual({
      title: 'Reports available offline',
      body: '120 reports are now saved on this computer and can be read without a connection.',
    });
  });

  it('uses the fetched count when the total is unknown, and the singular for one', () => {
    expect(notificationFor('sync:progress', progress('done', 1, null), false)?.body).toMatch(
      /^1 report is now/,
    );
  });

  it('stays quiet while the window has the focus', () => {
    expect(notificationFor('sync:progress', progress('done'), true)).toBeNull();
  });

  it.each(['fetching', 'pruning', 'failed', 'cancelled'] as const)('stays quiet for phase %s', (phase) => {
    expect(notificationFor('sync:progress', progress(phase), false)).toBeNull();
  });

  it('stays quiet when the finished sync ran in the background (Keep available offline)', () => {
    expect(notificationFor('sync:progress', { ...progress('done'), background: true }, false)).toBeNull();
  });

  const refreshed = (badNews: number, notifyBad = true): OfflineRefreshed => ({
    profileId: 'p1',
    profileName: 'Shop',
    notifyBad,
    summary: { mode: 'quick', badNews } as SyncSummary,
  });

  it('one notification per refresh that found new bad reports or reports that turned bad', () => {
    expect(notificationFor('offline:refreshed', refreshed(3), false)).toEqual({
      title: 'Reports turned bad',
      body: '3 reports of “Shop” are new and bad or turned bad. Open ReportDesk to see what changed.',
    });
    expect(notificationFor('offline:refreshed', refreshed(1), false)).toEqual({
      title: 'A report turned bad',
      body: '1 report of “Shop” is new and bad or turned bad. Open ReportDesk to see what changed.',
    });
  });

  it('none when the profile did not ask for it, nothing turned bad, or the window has the focus', () => {
    expect(notificationFor('offline:refreshed', refreshed(3, false), false)).toBeNull();
    expect(notificationFor('offline:refreshed', refreshed(0), false)).toBeNull();
    expect(notificationFor('offline:refreshed', refreshed(3), true)).toBeNull();
  });

  it('stays quiet for other events', () => {
    expect(notificationFor('app:navigate', { path: '/reports/1' }, false)).toBeNull();
  });
});
