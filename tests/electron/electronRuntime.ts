/** Where the Electron binary is, if it is installed at all (ELECTRON_SKIP_BINARY_DOWNLOAD leaves it out). */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export const SKIP_MESSAGE =
  'Electron runtime not installed (ELECTRON_SKIP_BINARY_DOWNLOAD) — skipping Electron end-to-end tests; see README › Electron tests';

export function electronExecutable(): string | null {
  try {
    // The electron package's main export is the binary's path; it throws when the download was skipped.
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}
