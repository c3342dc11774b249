import { describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../../shared/contract';
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

  it('stays quiet for other events', () => {
    expect(notificationFor('app:navigate', { path: '/reports/1' }, false)).toBeNull();
  });
});
