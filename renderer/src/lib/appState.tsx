/**
 * App-wide state that is not server data: toasts, the offline sync run, the age of the data
 * on screen (for the offline banner), and whether writes are possible right now.
 */
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { CacheStatus, Sourced, SyncProgress, SyncSummary } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import { Announcer } from './announce';
import { call, errorOf, onEvent } from './bridge';
import { errorText } from './errorWords';
import { useWords } from './i18n';
import { invalidateChanges } from './offlineQueries';
import { invalidateReportLists, queryKeys, useActiveProfileId, useConnectivity } from './queries';

// ---- Toasts ---------------------------------------------------------------------------------

interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error';
}

interface ToastApi {
  toasts: Toast[];
  show(text: string, tone?: Toast['tone']): void;
  dismiss(id: number): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback((text: string, tone: Toast['tone'] = 'info') => {
    const id = nextId.current++;
    // The shell times information out (pausing on hover and focus); errors stay until dismissed.
    setToasts((all) => [...all.slice(-3), { id, text, tone }]);
  }, []);
  const api = useMemo(() => ({ toasts, show, dismiss }), [toasts, show, dismiss]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <Announcer />
    </ToastContext.Provider>
  );
}

export function useToasts(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToasts needs a ToastProvider');
  return api;
}

// ---- Offline sync ---------------------------------------------------------------------------

interface SyncApi {
  running: boolean;
  progress: SyncProgress | null;
  summary: SyncSummary | null;
  error: AppError | null;
  start(): void;
  cancel(): void;
  /** The user has read the last run's failure. */
  dismissError(): void;
}

const SyncContext = createContext<SyncApi | null>(null);

export function SyncProvider({ children }: { children: ReactNode }) {
  const words = useWords();
  const client = useQueryClient();
  const profileId = useActiveProfileId();
  const toasts = useToasts();
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<SyncProgress | null>(null);
  const [summary, setSummary] = useState<SyncSummary | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const runningRef = useRef(false);

  useEffect(() => onEvent('sync:progress', (p) => setProgress(p)), []);

  const start = useCallback(() => {
    if (runningRef.current) return;
    runningRef.current = true;
    setRunning(true);
    setError(null);
    setSummary(null);
    setProgress(null);
    let refusedAsRunningElsewhere = false;
    // The first "Make available offline" of a profile also turns "Keep available offline" on.
    call('cache:sync', { turnOnKeepOffline: true })
      .then((done) => {
        setSummary(done);
        toasts.show(
          words(done.keepOfflineTurnedOn ? 'sync.done_keep_offline_on' : 'sync.done', {
            count: done.fetched,
          }),
        );
      })
      .catch((thrown: unknown) => {
        const failure = errorOf(thrown);
        refusedAsRunningElsewhere = failure.kind === 'busy';
        if (failure.kind === 'cancelled') toasts.show(words('sync.cancelled'));
        else setError(failure);
      })
      .finally(() => {
        runningRef.current = false;
        setRunning(false);
        if (profileId !== null) {
          // This window's sync has ended (its lease is gone) unless it was refused for another
          // one: say so now, so the screen never shows this window's own sync as another's
          // while the status is asked again.
          client.setQueryData<CacheStatus>(
            queryKeys.cacheStatus(profileId),
            (status) => status && { ...status, syncing: refusedAsRunningElsewhere },
          );
          void client.invalidateQueries({ queryKey: queryKeys.cacheStatus(profileId) });
          // The sync saw the service's current reports: lists on screen may be out of date.
          invalidateReportLists(client, profileId);
          invalidateChanges(client, profileId);
        }
      });
  }, [client, profileId, toasts, words]);

  const cancel = useCallback(() => {
    call('cache:cancelSync').catch((thrown: unknown) =>
      toasts.show(errorText(words, errorOf(thrown)), 'error'),
    );
  }, [toasts, words]);

  const dismissError = useCallback(() => setError(null), []);

  const api = useMemo(
    () => ({ running, progress, summary, error, start, cancel, dismissError }),
    [running, progress, summary, error, start, cancel, dismissError],
  );
  return <SyncContext.Provider value={api}>{children}</SyncContext.Provider>;
}

export function useSync(): SyncApi {
  const api = useContext(SyncContext);
  if (!api) throw new Error('useSync needs a SyncProvider');
  return api;
}

// ---- Age of the data on screen ----------------------------------------------------------------

let visibleSource: Sourced | null = null;
const sourceListeners = new Set<() => void>();

function setVisibleSource(next: Sourced | null): void {
  if (visibleSource?.source === next?.source && visibleSource?.fetchedAt === next?.fetchedAt) return;
  visibleSource = next;
  sourceListeners.forEach((listener) => listener());
}

/** A screen reports where its data came from, so the offline banner can say how old it is. */
export function useReportVisibleSource(sourced: Sourced | undefined): void {
  const source = sourced?.source;
  const fetchedAt = sourced?.fetchedAt;
  useEffect(() => {
    if (source === undefined || fetchedAt === undefined) return;
    setVisibleSource({ source, fetchedAt });
    return () => setVisibleSource(null);
  }, [source, fetchedAt]);
}

export function useVisibleSource(): Sourced | null {
  return useSyncExternalStore(
    (listener) => {
      sourceListeners.add(listener);
      return () => sourceListeners.delete(listener);
    },
    () => visibleSource,
  );
}

// ---- Writes ---------------------------------------------------------------------------------

/** Null when changes can be sent; otherwise the sentence that says why they cannot. */
export function useWriteBlockReason(): string | null {
  const words = useWords();
  const { data } = useConnectivity();
  return data && !data.online ? words('writes.blocked_offline') : null;
}
