/**
 * "Keep available offline" and "Changes since …" for the screens: query keys (the profile and
 * every parameter in each), the reads, the event wiring that keeps them current, and marking
 * changes seen. The core's `offline:changed` (options, a run started or ended) and
 * `offline:refreshed` (a run found something) events invalidate exactly what they change.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ChangesSummary, OfflineState } from '../../../shared/contract';
import { call, onEvent } from './bridge';
import { afterFirstScreen, invalidateReportLists, queryKeys } from './queries';

export const offlineKeys = {
  state: (profileId: string) => ['offline', profileId] as const,
  changesOf: (profileId: string) => ['changes', profileId] as const,
  summary: (profileId: string) => ['changes', profileId, 'summary'] as const,
  marks: (profileId: string, ids: readonly string[]) => ['changes', profileId, 'marks', [...ids]] as const,
};

export function useOfflineState(profileId: string) {
  return useQuery({
    queryKey: offlineKeys.state(profileId),
    queryFn: () => afterFirstScreen().then(() => call('offline:get', { profileId })),
  });
}

export function useChangesSummary(profileId: string) {
  return useQuery({
    queryKey: offlineKeys.summary(profileId),
    queryFn: () => afterFirstScreen().then(() => call('changes:summary')),
  });
}

/** Of the rows on screen, the ones to mark as new (unseen "added" changes). */
export function useNewMarks(profileId: string, ids: readonly string[]): ReadonlySet<string> {
  const marks = useQuery({
    queryKey: offlineKeys.marks(profileId, ids),
    queryFn: () => afterFirstScreen().then(() => call('changes:marks', { ids: [...ids] })),
    enabled: ids.length > 0,
  });
  return new Set(marks.data?.newIds ?? []);
}

/** What a refresh or a sync found: the changes, the lists, the status are all asked again. */
export function invalidateChanges(client: QueryClient, profileId: string): void {
  void client.invalidateQueries({ queryKey: offlineKeys.changesOf(profileId) });
  void client.invalidateQueries({ queryKey: offlineKeys.state(profileId) });
  void client.invalidateQueries({ queryKey: queryKeys.cacheStatus(profileId) });
}

/** Follows the core's offline events for `profileId` while the calling screen is shown. */
export function useOfflineEvents(profileId: string): void {
  const client = useQueryClient();
  useEffect(() => {
    const stopChanged = onEvent('offline:changed', (state: OfflineState) => {
      if (state.profileId === profileId) client.setQueryData(offlineKeys.state(profileId), state);
    });
    const stopRefreshed = onEvent('offline:refreshed', (refreshed) => {
      if (refreshed.profileId !== profileId) return;
      invalidateChanges(client, profileId);
      const { added, changed, removed } = refreshed.summary;
      if (added + changed + removed > 0) invalidateReportLists(client, profileId);
    });
    return () => {
      stopChanged();
      stopRefreshed();
    };
  }, [client, profileId]);
}

/** Opening a report marks its changes seen: its "new" mark goes, the counts go down. */
/** What "marked as seen" answered: the new summary, and the "new" marks asked again. */
export function applySeen(client: QueryClient, profileId: string, summary: ChangesSummary): void {
  client.setQueryData(offlineKeys.summary(profileId), summary);
  void client.invalidateQueries({ queryKey: [...offlineKeys.changesOf(profileId), 'marks'] });
}

export function useMarkSeenOnOpen(profileId: string | null, id: string, opened: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!opened || profileId === null) return;
    let current = true;
    call('changes:markSeen', { ids: [id] })
      .then((summary: ChangesSummary) => {
        if (!current) return;
        applySeen(client, profileId, summary);
      })
      // Marks are a convenience: a failure leaves them as they were, and says nothing.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [client, profileId, id, opened]);
}
