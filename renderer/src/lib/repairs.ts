/**
 * What ReportDesk repaired by itself, a damaged profiles file and keys that belong to no profile
 * (issue 30): the core's `repairs:status`, asked once the first screen is painted and kept
 * current by the `repairs:changed` event (a repair in any process, a dismissal, a restore).
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ChannelInput, RepairsStatus } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import { call, onEvent } from './bridge';
import { afterFirstScreen } from './queries';

export const REPAIRS_KEY = ['repairs'] as const;

export function useRepairsStatus() {
  const client = useQueryClient();
  useEffect(
    () => onEvent('repairs:changed', (status) => client.setQueryData<RepairsStatus>(REPAIRS_KEY, status)),
    [client],
  );
  return useQuery({
    queryKey: REPAIRS_KEY,
    queryFn: () => afterFirstScreen().then(() => call('repairs:status')),
    staleTime: Infinity,
  });
}

/** Whether the repair banners show for `status` (their code loads the first time they do). */
export function repairsShow(status: RepairsStatus | undefined): boolean {
  return (
    !!status && (status.notices.length > 0 || !!status.profilesDamaged || status.orphanedKeys.length > 0)
  );
}

/** A repairs channel's answer, kept as the status every banner reads. */
export async function applyRepairs(
  client: QueryClient,
  answer: Promise<RepairsStatus>,
): Promise<RepairsStatus> {
  const status = await answer;
  client.setQueryData(REPAIRS_KEY, status);
  return status;
}

export type KeysInput = ChannelInput<'repairs:restoreKeys'>;

/** The damaged profiles file an error names (`damaged` / `profiles_damaged`), or null. */
export function damagedProfilesOf(
  error: AppError | null | undefined,
): { file: string; asideAs: string } | null {
  if (error?.kind !== 'damaged' || error.reason !== 'profiles_damaged') return null;
  const { file, asideAs } = error.details ?? {};
  return file !== undefined && asideAs !== undefined ? { file, asideAs } : null;
}
