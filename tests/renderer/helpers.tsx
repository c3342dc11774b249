/**
 * Test helpers: a fake `window.reportDesk` (the renderer's only boundary) and a render function
 * with the app's providers around a screen.
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type {
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  EventPayloads,
  SyncSummary,
} from '../../shared/contract';
import { AppFailure, appError, englishOnlyError, type AppError } from '../../shared/errors';
import { SyncProvider, ToastProvider } from '../../renderer/src/lib/appState';
import { LanguageProvider } from '../../renderer/src/lib/i18n';
import { createQueryClient } from '../../renderer/src/lib/queries';

export type FakeHandlers = {
  [C in Channel]?: (input: ChannelInput<C>) => ChannelOutput<C> | Promise<ChannelOutput<C>>;
};

export interface FakeBridge {
  calls: { channel: Channel; input: unknown }[];
  callsTo(channel: Channel): unknown[];
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
}

/** Throw this from a fake handler to make the channel answer `{ ok: false, error }`. */
export function failWith(error: Partial<AppError> & Pick<AppError, 'kind'>): never {
  throw new AppFailure({ ...appError(error.kind), ...error });
}

/** What the preview answers on settings:language before a language was chosen (every Settings screen asks it). */
export const SYSTEM_LANGUAGE = { choice: 'system' as const, systemLanguages: null, runLanguage: null };

/** What the preview and the CLI answer on updates:status (every Settings screen asks it). */
export const UNMANAGED_UPDATES = {
  managed: false,
  unmanagedReason: 'not_installed' as const,
  currentVersion: null,
  preferences: { automatic: true, channel: 'latest' as const },
  lastCheckedAt: null,
  phase: 'idle' as const,
  update: null,
  downloadPercent: null,
  failure: null,
  install: 'on-quit' as const,
  restartWaitingFor: null,
};

/** A full sync that read 120 reports in 2 pages and completed (each test changes what it needs). */
export function finishedSync(changes: Partial<SyncSummary> = {}): SyncSummary {
  return {
    fetched: 120,
    removed: 0,
    pages: 2,
    completedAt: '2025-01-01T10:00:00.000Z',
    pruned: true,
    reason: null,
    mode: 'full',
    added: 0,
    changed: 0,
    complete: true,
    passes: 1,
    requests: 2,
    badNews: 0,
    ...changes,
  };
}

/** What `repairs:status` answers when nothing was repaired (every window asks it once painted). */
export const NO_REPAIRS = { notices: [], profilesDamaged: null, orphanedKeys: [] };

export function installFakeBridge(given: FakeHandlers): FakeBridge {
  const handlers: FakeHandlers = {
    'updates:status': () => UNMANAGED_UPDATES,
    'repairs:status': () => NO_REPAIRS,
    'settings:language': () => SYSTEM_LANGUAGE,
    ...given,
  };
  const calls: FakeBridge['calls'] = [];
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  window.reportDesk = {
    async invoke(channel, input) {
      calls.push({ channel, input });
      const handler = handlers[channel] as ((input: unknown) => unknown) | undefined;
      if (!handler)
        return { ok: false, error: englishOnlyError('internal', `The fake has no handler for ${channel}.`) };
      try {
        return { ok: true, value: (await handler(input)) as never };
      } catch (thrown) {
        if (thrown instanceof AppFailure) return { ok: false, error: thrown.error };
        throw thrown;
      }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (payload: unknown) => void);
    },
  };
  return {
    calls,
    callsTo: (channel) => calls.filter((c) => c.channel === channel).map((c) => c.input),
    emit: (event, payload) => listeners.get(event)?.forEach((listener) => listener(payload)),
  };
}

export function renderWithApp(ui: ReactNode, client: QueryClient = createQueryClient()) {
  const result = render(
    <LanguageProvider>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <SyncProvider>{ui}</SyncProvider>
        </ToastProvider>
      </QueryClientProvider>
    </LanguageProvider>,
  );
  return { ...result, client };
}

export const ONLINE = { online: true, since: '2025-01-01T10:00:00.000Z', lastError: null };
export const OFFLINE = {
  online: false,
  since: '2025-01-01T10:00:00.000Z',
  lastError: appError('network'),
};

export const PROFILE = {
  id: 'p1',
  name: 'Work',
  baseUrl: 'https://reports.example.com',
  allowInsecureHttp: false,
  keyHint: 'abcd',
  hasKey: true,
  keyStorage: 'keychain' as const,
  demo: false,
};

/** A profile's "Keep available offline" state as a new profile has it (Settings asks for it). */
export const OFFLINE_STATE = {
  profileId: 'p1',
  keepOffline: false,
  refreshMinutes: 15 as const,
  notifyBad: false,
  keepOfflineChosen: false,
  lastQuickRefreshAt: null,
  lastFullSyncAt: null,
  running: null,
  waitingForPower: false,
  lastError: null,
};
