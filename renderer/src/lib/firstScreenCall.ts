/**
 * The first screen's question, sent before anything else runs (issue 22): `app:firstScreen`
 * with the list of the profile this window showed last. It needs only the bridge and the
 * list's saved state, so the page sends it before React's code is evaluated (see boot.ts) and
 * the answer travels while that runs; lib/firstScreen.ts puts the answer into the queries.
 */
import type { FirstScreen } from '../../../shared/contract';
import { PROFILE_ID_PATTERN } from '../../../shared/links';
import type { ListQuery } from '../../../shared/model';
import { call } from './bridge';
import { listStateToQuery, loadListState } from './listState';

/** The profile whose list this window showed last: the list the first answer brings. */
export const LAST_PROFILE_KEY = 'reportdesk.firstScreen.profile';

export interface FirstScreenAsked {
  /** The profile whose list was asked for, or null when none was. */
  expected: string | null;
  /** That list's query. */
  query: ListQuery | null;
  answer: Promise<FirstScreen>;
}

/** Sends `app:firstScreen`, with the last profile's list when `withList`. */
export function askFirstScreen(withList: boolean): FirstScreenAsked {
  const expected = withList ? lastProfile() : null;
  const query = expected === null ? null : listStateToQuery(loadListState(expected));
  const answer = call('app:firstScreen', expected && query ? { list: { profileId: expected, query } } : {});
  return { expected, query, answer };
}

function lastProfile(): string | null {
  try {
    const id = localStorage.getItem(LAST_PROFILE_KEY);
    return id !== null && PROFILE_ID_PATTERN.test(id) ? id : null;
  } catch {
    return null;
  }
}
