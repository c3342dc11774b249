/**
 * The app's updater, with what only Electron has: Electron's `app` through electron-updater's
 * own ElectronAppAdapter, and requests over Electron's `net` in electron-updater's own session
 * partition (system proxy, OS certificates), as its ElectronHttpExecutor makes them. Every
 * decision is in electron/core/updates (tested without Electron); this is the plug.
 */
import { app, net, session, type IncomingMessage } from 'electron';
import { HttpExecutor } from 'builder-util-runtime';
import { ElectronAppAdapter } from 'electron-updater/out/ElectronAppAdapter';
import { createAppUpdates, type UpdatesContext } from '../core/updates/appUpdates';
import type { FeedRequest, FeedTransport } from '../core/updates/feedHttp';
import type { UpdatesService } from '../core/updates/updatesService';

/** electron-updater's partition: no HTTP cache, apart from the app's own session. */
const UPDATER_PARTITION = 'electron-updater';
const MAX_REDIRECTS = 10;

export function createElectronUpdates(context: UpdatesContext, dataDir: string): UpdatesService {
  return createAppUpdates({
    ...context,
    dataDir,
    adapter: new ElectronAppAdapter(app),
    platform: process.platform,
    resourcesPath: process.resourcesPath,
    appImage: process.env.APPIMAGE,
    transport: electronNetTransport(),
  });
}

/**
 * Electron's net.request: with `redirect: 'manual'` (FeedHttpExecutor always sets it) a
 * redirect is a 'redirect' event; the request is aborted and asked again through the
 * executor, which checks the new address first (https://www.electronjs.org/docs/latest/api/client-request).
 */
export function electronNetTransport(): FeedTransport {
  return {
    createRequest(options, onResponse) {
      const request = net.request({
        ...(options as Electron.ClientRequestConstructorOptions),
        session: session.fromPartition(UPDATER_PARTITION, { cache: false }),
      });
      request.on('response', (response: IncomingMessage) => onResponse(response as never));
      return request as unknown as FeedRequest;
    },
    addRedirectHandlers(request, options, reject, redirectCount, handler) {
      (request as unknown as Electron.ClientRequest).on('redirect', (_status, _method, redirectUrl) => {
        request.abort();
        if (redirectCount > MAX_REDIRECTS) reject(new Error(`Too many redirects (> ${MAX_REDIRECTS})`));
        else handler(HttpExecutor.prepareRedirectUrlOptions(redirectUrl, options));
      });
    },
  };
}
