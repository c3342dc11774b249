import { describe, expect, it } from 'vitest';
import type { OfflineRefreshed, SyncProgress, SyncSummary } from '../../../shared/contract';
import { notificationFor } from '../../../electron/core/desktop/notifications';
import { englishWords, idWords } from '../../helpers/words';

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
    expect(notificationFor('sync:progress', progress('done'), false, englishWords)).toEqual({
      title: 'Reports available offline',
      body: '120 reports are now saved on this computer and can be read without a connection.',
    });
  });

  it('uses the fetched count when the total is unknown, and the singular for one', () => {
    expect(notificationFor('sync:progress', progress('done', 1, null), false, englishWords)?.body).toMatch(
      /^1 report is now/,
    );
  });

  it('stays quiet while the window has the focus', () => {
    expect(notificationFor('sync:progress', progress('done'), true, englishWords)).toBeNull();
  });

  it.each(['fetching', 'pruning', 'failed', 'cancelled'] as const)('stays quiet for phase %s', (phase) => {
    expect(notificationFor('sync:progress', progress(phase), false, englishWords)).toBeNull();
  });

  it('stays quiet when the finished sync ran in the background (Keep available offline)', () => {
    expect(
      notificationFor('sync:progress', { ...progress('done'), background: true }, false, englishWords),
    ).toBeNull();
  });

  const refreshed = (badNews: number, notifyBad = true): OfflineRefreshed => ({
    profileId: 'p1',
    profileName: 'Shop',
    notifyBad,
    summary: { mode: 'quick', badNews } as SyncSummary,
  });

  it('one notification per refresh that found new bad reports or reports that turned bad', () => {
    expect(notificationFor('offline:refreshed', refreshed(3), false, englishWords)).toEqual({
      title: 'Reports turned bad',
      body: '3 reports of “Shop” are new and bad or turned bad. Open ReportDesk to see what changed.',
    });
    expect(notificationFor('offline:refreshed', refreshed(1), false, englishWords)).toEqual({
      title: 'A report turned bad',
      body: '1 report of “Shop” is new and bad or turned bad. Open ReportDesk to see what changed.',
    });
  });

  it('none when the profile did not ask for it, nothing turned bad, or the window has the focus', () => {
    expect(notificationFor('offline:refreshed', refreshed(3, false), false, englishWords)).toBeNull();
    expect(notificationFor('offline:refreshed', refreshed(0), false, englishWords)).toBeNull();
    expect(notificationFor('offline:refreshed', refreshed(3), true, englishWords)).toBeNull();
  });

  it('stays quiet for other events', () => {
    expect(notificationFor('app:navigate', { path: '/reports/1' }, false, englishWords)).toBeNull();
  });

  it('says it in the language of the window', () => {
    expect(notificationFor('offline:refreshed', refreshed(2), false, idWords())).toEqual({
      title: '⟦notification.bad_news.title⟧ count=2',
      body: '⟦notification.bad_news.body⟧ count=2 profile=Shop',
    });
    expect(notificationFor('sync:progress', progress('done'), false, idWords())).toEqual({
      title: '⟦notification.sync_done.title⟧',
      body: '⟦notification.sync_done.body⟧ count=120',
    });
  });
});
