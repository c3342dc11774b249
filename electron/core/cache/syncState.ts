/**
 * A full sync's progress as the cache keeps it between runs: written with every page, in the
 * page's transaction, as one meta value (`sync_progress`, JSON) beside the pass's mark
 * (SYNC_ID_META, which write-throughs read to mark what they store as seen). A killed run
 * leaves both; the next run resumes the same pass at its next page.
 */
import { SYNC_ID_META, type ReportCache } from './reportCache';

export const SYNC_PROGRESS_META = 'sync_progress';
/** Meta key holding the newest id a complete read saw: a quick refresh reads down to it. */
export const REFRESH_HIGH_ID_META = 'refresh_high_id';

/** Keys an older ReportDesk kept its progress under: dropped when a sync ends. */
const LEGACY_PROGRESS_KEYS = [
  'sync_next_page',
  'sync_started_at',
  'sync_fetched',
  'sync_pages',
  'sync_first_total',
  'sync_last_id',
  'sync_listing_changed',
];

export interface SyncState {
  /** Which read of the whole list this is (1 to MAX_SYNC_PASSES). */
  pass: number;
  startedAt: string;
  /** The next page to read in this pass. */
  nextPage: number;
  /** Reports and pages read in this pass. */
  fetched: number;
  pages: number;
  /** The total this pass's first page announced: null when it sent none, undefined before it. */
  firstTotal?: number | null;
  /** The highest id this pass read, to check that its pages join up across a resume. */
  lastId: string | null;
  /** True once a page of this pass showed the listing moved underneath. */
  changed: boolean;
  /** Over the whole sync, every pass and run: the copy's changes and the requests sent. */
  added: number;
  changedReports: number;
  badNews: number;
  requests: number;
}

export function freshSyncState(startedAt: string): SyncState {
  return {
    pass: 1,
    startedAt,
    nextPage: 1,
    fetched: 0,
    pages: 0,
    lastId: null,
    changed: false,
    added: 0,
    changedReports: 0,
    badNews: 0,
    requests: 0,
  };
}

/** The next pass of the same sync: its reading starts over, its totals carry on. */
export function nextPassState(state: SyncState): SyncState {
  return {
    ...state,
    pass: state.pass + 1,
    nextPage: 1,
    fetched: 0,
    pages: 0,
    firstTotal: undefined,
    lastId: null,
    changed: false,
  };
}

/** The mark rows seen by `pass` carry: the sync's id and the pass. */
export function passMark(syncId: string, pass: number): string {
  return `${syncId}:${pass}`;
}

/**
 * The unfinished sync of the scope, or null. Progress that cannot be read (damaged, or left
 * under other keys by an older ReportDesk) is no sync to resume: a new one starts, with a new
 * mark, so what the old one saw is pruned if this one proves it gone.
 */
export function loadSyncState(cache: ReportCache, scope: string): { mark: string; state: SyncState } | null {
  const mark = cache.getMeta(scope, SYNC_ID_META);
  // Progress without its mark (a damaged file) is no sync to resume either.
  if (mark === null) return null;
  let state: Partial<SyncState> | null = null;
  try {
    state = JSON.parse(cache.getMeta(scope, SYNC_PROGRESS_META) ?? 'null') as Partial<SyncState> | null;
  } catch {
    // Unreadable: no sync to resume.
  }
  return typeof state?.pass === 'number' ? { mark, state: state as SyncState } : null;
}

/** Writes the progress and the pass's mark (inside the caller's transaction). */
export function saveSyncState(cache: ReportCache, scope: string, state: SyncState, mark: string): void {
  cache.setMeta(scope, SYNC_ID_META, mark);
  cache.setMeta(scope, SYNC_PROGRESS_META, JSON.stringify(state));
}

/** Forgets the progress (a sync that ended), the keys an older version used included. */
export function clearSyncState(cache: ReportCache, scope: string): void {
  for (const key of [SYNC_ID_META, SYNC_PROGRESS_META, ...LEGACY_PROGRESS_KEYS])
    cache.setMeta(scope, key, null);
}
