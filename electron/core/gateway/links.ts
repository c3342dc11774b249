/**
 * Links in and out: reportdesk:// links opened by the app, and web addresses handed to the
 * system browser (http and https only).
 */
import type { OpenedLink } from '../../../shared/contract';
import { AppFailure, appError, wordedError } from '../../../shared/errors';
import { parseDeepLink } from '../desktop/deepLink';
import type { ProfileStore } from '../profiles/profileStore';
import { checkExternalUrl, externalUrlRefusal } from '../../../shared/externalUrl';

export class Links {
  constructor(
    private readonly profiles: ProfileStore,
    /** Makes a profile the active one (and tells the front ends). */
    private readonly activate: (profileId: string) => Promise<unknown>,
    private readonly openExternalUrl?: (url: string) => Promise<void>,
  ) {}

  /** A reportdesk:// link: its profile made active when named (and known), then its route. */
  async open(url: string): Promise<OpenedLink> {
    const target = parseDeepLink(url);
    if (!target) {
      throw new AppFailure(appError('link.invalid'));
    }
    if (target.profileId === null) return { path: target.path, profileId: null };
    const profile = this.profiles.get(target.profileId);
    if (!profile) {
      throw new AppFailure(appError('link.profile_missing', { profile: target.profileId }));
    }
    if (this.profiles.activeId() !== profile.id) await this.activate(profile.id);
    return { path: target.path, profileId: profile.id };
  }

  /** Hands a web address to the system browser, under the one external-URL policy. */
  async openExternal(url: string): Promise<{ opened: boolean }> {
    const verdict = checkExternalUrl(url);
    if (!verdict.ok) throw new AppFailure(wordedError(externalUrlRefusal(verdict.reason)));
    if (!this.openExternalUrl) return { opened: false };
    await this.openExternalUrl(verdict.href);
    return { opened: true };
  }
}
