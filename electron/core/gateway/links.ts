/**
 * Links in and out: reportdesk:// links opened by the app, and web addresses handed to the
 * system browser (http and https only).
 */
import type { OpenedLink } from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import { parseDeepLink } from '../desktop/deepLink';
import type { ProfileStore } from '../profiles/profileStore';

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
      throw new AppFailure(
        appError(
          'invalid_input',
          'That is not a ReportDesk link. A link looks like reportdesk://report/12?profile=…; copy it again.',
        ),
      );
    }
    if (target.profileId === null) return { path: target.path, profileId: null };
    const profile = this.profiles.get(target.profileId);
    if (!profile) {
      throw new AppFailure(
        appError(
          'not_found',
          `The link is for the profile “${target.profileId}”, which is not set up on this computer. Add that profile (same service and key) or ask for a link without a profile.`,
        ),
      );
    }
    if (this.profiles.activeId() !== profile.id) await this.activate(profile.id);
    return { path: target.path, profileId: profile.id };
  }

  async openExternal(url: string): Promise<{ opened: boolean }> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AppFailure(appError('invalid_input', 'That is not a web address, so it was not opened.'));
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new AppFailure(
        appError('invalid_input', 'Only http:// and https:// addresses are opened in the browser.'),
      );
    }
    if (!this.openExternalUrl) return { opened: false };
    await this.openExternalUrl(parsed.toString());
    return { opened: true };
  }
}
