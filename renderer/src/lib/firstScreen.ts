/**
 * The first screen's reads in one round trip (issue 22): before React renders anything,
 * `app:firstScreen` asks for the profiles, connectivity and the list this window showed last.
 * Each part lands in the query the screens read it from — same keys, same answers as their own
 * channels — so a screen finds it there, or still on its way, and does not ask again.
 */
import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { FirstScreen, ProfilesState, ReportPageResult } from '../../../shared/contract';
import { normalizeListQuery, type ListQuery } from '../../../shared/model';
import { call, CallError, localError } from './bridge';
import { askFirstScreen, LAST_PROFILE_KEY, type FirstScreenAsked } from './firstScreenCall';
import { listStateToQuery, loadListState } from './listState';
import { applyLanguageState, latestConnectivity, queryKeys } from './queries';

/** How long a failed list waits for the list screen to look at it (then the screen asks itself). */
const HANDOVER_MS = 10_000;

/** Puts the first screen's answer into the queries (asking now unless `asked` says it was asked already). */
export function prefetchFirstScreen(
  client: QueryClient,
  withList: boolean,
  asked: FirstScreenAsked = askFirstScreen(withList),
): void {
  const { expected, query, answer } = asked;
  rememberActiveProfile(client);
  // The app's language (its setting, the system's, --lang): shown as soon as it is known. When
  // the answer failed, asked on its own, so that the error screen speaks it too.
  const languageShown = answer
    .then(
      (first) => first.language,
      () => call('settings:language'),
    )
    .then((state) => applyLanguageState(client, state))
    .catch(() => undefined);

  // Hooks that mount before the answer wait for it instead of asking themselves.
  void client.prefetchQuery({
    queryKey: queryKeys.connectivity,
    queryFn: () =>
      answer.then((first) =>
        latestConnectivity(client.getQueryData(queryKeys.connectivity), first.connectivity),
      ),
    staleTime: Infinity,
  });
  if (expected && query) {
    const listKey = queryKeys.reports(expected, normalizeListQuery(query));
    void client
      .prefetchQuery({
        queryKey: listKey,
        queryFn: () => answer.then((first) => expectedList(client, first, expected, listKey, query)),
      })
      .then(async () => {
        // Another profile is active: the question was wrong, and its failure is nobody's.
        const first = await answer.catch(() => null);
        if (first && first.profiles.activeId !== expected)
          client.removeQueries({ queryKey: listKey, exact: true });
      });
  }
  client
    .fetchQuery({
      queryKey: queryKeys.profiles,
      // A failure waits for the language, so that the error screen is worded in it.
      queryFn: () =>
        answer.then(
          (first) => first.profiles,
          (error: unknown) =>
            languageShown.then(() => {
              throw error;
            }),
        ),
      staleTime: Infinity,
    })
    .then((state) => {
      // Not the list asked for (a first start, another profile active since): asked now.
      if (!withList || state.activeId === null || state.activeId === expected) return;
      const own = listStateToQuery(loadListState(state.activeId));
      return client.prefetchQuery({
        queryKey: queryKeys.reports(state.activeId, normalizeListQuery(own)),
        queryFn: () => call('reports:list', own),
      });
    })
    .catch(() => undefined);
}

async function expectedList(
  client: QueryClient,
  first: FirstScreen,
  expected: string,
  listKey: QueryKey,
  query: ListQuery,
): Promise<ReportPageResult> {
  if (first.profiles.activeId !== expected) throw new CallError(localError('no_profile'));
  const list = first.list;
  // Switched back to it while the answer was made: asked now.
  if (list === null) return call('reports:list', query);
  if (list.ok) return list.value;
  // The failure is the list screen's to show. It arrives with the profiles, before the screen
  // is there: failing now would have the screen ask again (a second wait for a service that
  // is not answering), so it waits until the screen looks.
  await watched(client, listKey, HANDOVER_MS);
  throw new CallError(list.error);
}

/** Resolves once a screen observes the query, or after `ms`. */
function watched(client: QueryClient, queryKey: QueryKey, ms: number): Promise<void> {
  const cache = client.getQueryCache();
  const hash = hashKey(queryKey);
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    const unsubscribe = cache.subscribe((event) => {
      if (event.type === 'observerAdded' && event.query.queryHash === hash) done();
    });
    if ((cache.get(hash)?.getObserversCount() ?? 0) > 0) done();
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}

/** Keeps the active profile's id for the next start, whenever the profiles change. */
function rememberActiveProfile(client: QueryClient): void {
  const hash = hashKey(queryKeys.profiles);
  client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryHash !== hash) return;
    const activeId = (event.query.state.data as ProfilesState | undefined)?.activeId;
    if (activeId === undefined) return;
    try {
      if (activeId === null) localStorage.removeItem(LAST_PROFILE_KEY);
      else if (localStorage.getItem(LAST_PROFILE_KEY) !== activeId)
        localStorage.setItem(LAST_PROFILE_KEY, activeId);
    } catch {
      // Storage disabled: the next start asks for the list after the profiles, as before.
    }
  });
}
