/**
 * The app's updater, with what only Electron has: Electron's `app` through electron-updater's
 * own ElectronAppAdapter, and `net` in electron-updater's session partition (no HTTP cache).
 * Every decision is in electron/core/updates (tested without Electron); this is the plug.
 */
import { app, net, session } from 'electron';
import { ElectronAppAdapter } from 'electron-updater/out/ElectronAppAdapter.js';
import { createAppUpdates, type UpdatesContext } from '../core/updates/appUpdates';
import { electronNetTransport, type ElectronNet } from '../core/updates/electronTransport';
import type { UpdatesService } from '../core/updates/updatesService';

/** electron-updater's own partition name (its electronHttpExecutor.NET_SESSION_NAME). */
const UPDATER_PARTITION = 'electron-updater';

export function createElectronUpdates(context: UpdatesContext, dataDir: string): UpdatesService {
  return createAppUpdates({
    ...context,
    dataDir,
    adapter: new ElectronAppAdapter(app),
    platform: process.platform,
    resourcesPath: process.resourcesPath,
    appImage: process.env.APPIMAGE,
    transport: electronNetTransport(net as unknown as ElectronNet, () =>
      session.fromPartition(UPDATER_PARTITION, { cache: false }),
    ),
  });
}
