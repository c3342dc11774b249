/** Where the Electron binary is, if it is installed at all (ELECTRON_SKIP_BINARY_DOWNLOAD leaves it out). */
import { installedElectronBinary } from '../../scripts/electron-runtime.mjs';

export const SKIP_MESSAGE =
  'Electron runtime not installed (ELECTRON_SKIP_BINARY_DOWNLOAD) — skipping Electron end-to-end tests; see README › Electron tests';

export function electronExecutable(): string | null {
  // Never require('electron') here: from electron 42 on that downloads the binary when it is
  // missing (node_modules/electron/index.js). The helper reads path.txt and dist/ instead.
  return installedElectronBinary();
}
