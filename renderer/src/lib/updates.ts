/**
 * The app's updates in the renderer: the status, kept current by the `updates:changed` event
 * (its sentences are in updateWords.ts, loaded with the parts that say them).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { UpdateStatus } from '../../../shared/contract';
import { call, onEvent } from './bridge';
import { afterFirstScreen } from './queries';

export const UPDATES_KEY = ['updates'] as const;

/** The update status; every window shows the same one, changed by the main process's events. */
export function useUpdateStatus() {
  const client = useQueryClient();
  useEffect(
    () => onEvent('updates:changed', (status) => client.setQueryData<UpdateStatus>(UPDATES_KEY, status)),
    [client],
  );
  return useQuery({
    queryKey: UPDATES_KEY,
    queryFn: () => afterFirstScreen().then(() => call('updates:status')),
    staleTime: Infinity,
  });
}

/** Whether the "ready to update" bar shows for `status` (its code loads the first time it does). */
export function updateBarShows(status: UpdateStatus | undefined): boolean {
  const phase = status?.phase;
  return (
    status?.managed === true && !!status.update?.version && (phase === 'ready' || phase === 'installing')
  );
}
