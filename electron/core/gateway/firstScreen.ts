/**
 * `app:firstScreen`: what a window shows first, in one round trip instead of one after another
 * (the profiles, then the list, with connectivity beside them). The list is the one the window
 * expects — the profile whose list it showed last, with that list's query — and is answered
 * only while that profile is still the active one, exactly as `reports:list` answers it,
 * failure included (so the window shows that failure instead of asking again).
 */
import type { ChannelParsedInput, FirstScreen, ReportPageResult } from '../../../shared/contract';
import { AppFailure, fail, ok, type Result } from '../../../shared/errors';
import type { Connections } from './connection';
import type { Connectivity } from './connectivity';
import type { LanguageService } from './languageService';
import type { ProfilesService } from './profilesService';
import type { ReportsService } from './reportsService';

export interface FirstScreenServices {
  profiles: ProfilesService;
  reports: ReportsService;
  connectivity: Connectivity;
  connections: Connections;
  language: LanguageService;
}

export async function firstScreen(
  input: ChannelParsedInput<'app:firstScreen'>,
  services: FirstScreenServices,
): Promise<FirstScreen> {
  const wanted = input?.list;
  // The list and the profiles' views (a keychain look-up each) are read side by side.
  const listing =
    wanted && wanted.profileId === services.connections.activeProfileId()
      ? listResult(services.reports.list(wanted.query))
      : null;
  const [profiles, list] = await Promise.all([services.profiles.state(), listing]);
  return {
    profiles,
    // Read after the list: one that found the service gone has turned it offline.
    connectivity: services.connectivity.current,
    // Another process may have switched profiles meanwhile: then the list is not this one's.
    list: profiles.activeId === wanted?.profileId ? list : null,
    language: services.language.state(),
  };
}

/** The list's answer or its failure, as `reports:list` would answer; anything else is thrown. */
async function listResult(answer: Promise<ReportPageResult>): Promise<Result<ReportPageResult>> {
  try {
    return ok(await answer);
  } catch (thrown) {
    if (thrown instanceof AppFailure) return fail(thrown.error);
    throw thrown;
  }
}
