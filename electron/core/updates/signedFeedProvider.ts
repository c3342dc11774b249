/**
 * electron-updater's provider for a generic feed, with the manifest's signature checked before
 * anything else is read from it. It does what electron-updater's GenericProvider does (the
 * channel's file name per platform, `latest-linux.yml` on x64 Linux, the files resolved against
 * the feed), except that it fetches `<manifest>` and `<manifest>.sig` as bytes and:
 *   1. refuses a feed that answers 404, a server error or an HTML page (`feed_*`);
 *   2. refuses a manifest without a signature, or whose exact bytes no trusted key signed;
 *   3. only then parses it, and refuses one without a sha512 for every file (electron-updater
 *      checks each download against it) or with a file address ./feedUrl.ts refuses.
 * Used through `setFeedURL({ provider: 'custom', updateProvider: SignedFeedProvider, … })`.
 */
import type { KeyObject } from 'node:crypto';
import type { CustomPublishOptions, UpdateInfo } from 'builder-util-runtime';
import type { AppUpdater } from 'electron-updater';
import type { ResolvedUpdateFileInfo } from 'electron-updater/out/types.js';
import {
  parseUpdateInfo,
  Provider,
  resolveFiles,
  type ProviderRuntimeOptions,
} from 'electron-updater/out/providers/Provider.js';
import { FeedHttpExecutor, type FetchedFile } from './feedHttp';
import { checkFeedUrl } from './feedUrl';
import { isSignedBy, SIGNATURE_SUFFIX } from './signatures';
import { UpdateFailure } from './updateFailure';

export interface SignedFeedOptions extends CustomPublishOptions {
  readonly provider: 'custom';
  readonly url: string;
  /** The keys a manifest may be signed by (the app's embedded ones, or --public-key). */
  readonly publicKeys: readonly KeyObject[];
}

/** Far above any manifest (a few hundred bytes per file); a feed sending more is not one. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;
/** A signature file is 89 bytes; a little room for a CRLF or spaces. */
const MAX_SIGNATURE_BYTES = 1024;
/** A sha512 in a manifest, as electron-builder writes it: base64 of 64 bytes. */
const SHA512_BASE64 = /^[A-Za-z0-9+/]{86}==$/;

export class SignedFeedProvider extends Provider<UpdateInfo> {
  private readonly baseUrl: URL;

  private readonly configuration: SignedFeedOptions;

  /** electron-updater calls it with the options given to setFeedURL (./updaters.ts useSignedFeed). */
  constructor(
    configuration: CustomPublishOptions,
    private readonly updater: AppUpdater,
    runtimeOptions: ProviderRuntimeOptions,
  ) {
    super(runtimeOptions);
    this.configuration = configuration as SignedFeedOptions;
    this.baseUrl = new URL(this.configuration.url);
    // electron-updater joins file names onto the feed: it must end with a slash (util.newBaseUrl).
    if (!this.baseUrl.pathname.endsWith('/')) this.baseUrl.pathname += '/';
  }

  /** The manifest's name: `<channel><platform suffix>.yml`, as GenericProvider names it. */
  get manifestName(): string {
    return `${this.getCustomChannelName(this.updater.channel ?? 'latest')}.yml`;
  }

  async getLatestVersion(): Promise<UpdateInfo> {
    const executor = this.executor as unknown;
    // Without our executor nothing would hold requests to the feed's rules: refuse.
    if (!(executor instanceof FeedHttpExecutor)) throw new UpdateFailure('insecure_feed');
    const manifestUrl = this.fresh(new URL(this.manifestName, this.baseUrl));
    const fetch = (url: URL, maxBytes: number) => executor.fetchFile(url, maxBytes);

    const manifest = await fetch(manifestUrl, MAX_MANIFEST_BYTES);
    refuseUnreadable(manifest, 'feed_not_found');
    if (!manifest.complete || looksLikeHtml(manifest)) throw new UpdateFailure('feed_not_manifest');

    const signatureUrl = this.fresh(new URL(`${this.manifestName}${SIGNATURE_SUFFIX}`, this.baseUrl));
    const signature = await fetch(signatureUrl, MAX_SIGNATURE_BYTES);
    refuseUnreadable(signature, 'signature_missing');
    const signed =
      signature.complete &&
      isSignedBy(manifest.body, signature.body.toString('latin1'), this.configuration.publicKeys);
    if (!signed) throw new UpdateFailure('signature_invalid');

    // The bytes are the release machine's: now they may be read.
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(manifest.body);
    } catch {
      throw new UpdateFailure('feed_not_manifest');
    }
    const info = parseUpdateInfo(text, this.manifestName, manifestUrl);
    this.checkFiles(info);
    return info;
  }

  resolveFiles(updateInfo: UpdateInfo): ResolvedUpdateFileInfo[] {
    return resolveFiles(updateInfo, this.baseUrl);
  }

  /** Every file has a sha512 to check the download against, and an address we may ask. */
  private checkFiles(info: unknown): asserts info is UpdateInfo {
    const candidate = info as { version?: unknown; files?: unknown; packages?: unknown } | null;
    const files = candidate?.files;
    if (typeof candidate?.version !== 'string' || !Array.isArray(files) || files.length === 0) {
      throw new UpdateFailure('feed_not_manifest');
    }
    // NSIS's web-installer packages, which electron-updater also resolves against the feed.
    const packages = Object.values((candidate.packages ?? {}) as Record<string, unknown>);
    for (const entry of [...(files as unknown[]), ...packages]) {
      const file = (entry ?? {}) as { url?: unknown; path?: unknown; sha512?: unknown };
      if (!SHA512_BASE64.test(String(file.sha512))) {
        throw new UpdateFailure('feed_not_manifest');
      }
      const where = file.url ?? file.path;
      if (typeof where !== 'string') throw new UpdateFailure('feed_not_manifest');
      if (!checkFeedUrl(where, this.baseUrl).ok) throw new UpdateFailure('insecure_feed');
    }
  }

  /** A query that defeats caches between the app and the feed, as GenericProvider adds. */
  private fresh(url: URL): URL {
    if (this.baseUrl.search !== '') url.search = this.baseUrl.search;
    else url.search = `noCache=${Date.now().toString(32)}`;
    return url;
  }
}

/** 404 (or another 4xx) → `missing`; a server error, or any other non-2xx, → the feed is down. */
function refuseUnreadable(file: FetchedFile, missing: 'feed_not_found' | 'signature_missing'): void {
  // Node and Electron hand over final statuses only: below 300 is a 2xx.
  if (file.status < 300) return;
  throw new UpdateFailure(file.status >= 400 && file.status < 500 ? missing : 'feed_unreachable');
}

/** An HTML page where a YAML manifest was expected: a web site, a login page, a host's 200 error page. */
function looksLikeHtml(file: FetchedFile): boolean {
  return /html/i.test(`${file.contentType}`) || /^\s*</.test(file.body.toString('latin1'));
}
