/**
 * Launches the built app (dist/electron/main.cjs) with its own temporary data folder, in E2E
 * mode (no OS protocol registration; links the page opens are recorded instead of opened).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, test as base, type ElectronApplication, type Page } from '@playwright/test';
import { SKIP_MESSAGE, electronExecutable } from './electronRuntime';

export { expect } from '@playwright/test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const mainScript = join(root, 'dist', 'electron', 'main.cjs');

/** Call at the top of every spec file. */
export function skipWithoutElectron(): void {
  base.skip(electronExecutable() === null, SKIP_MESSAGE);
}

export interface AppFixtures {
  dataDir: string;
  electronApp: ElectronApplication;
  /** The main window's page. */
  appWindow: Page;
}

export async function launchApp(dataDir: string): Promise<ElectronApplication> {
  const executablePath = electronExecutable();
  if (!executablePath) throw new Error(SKIP_MESSAGE);
  if (!existsSync(mainScript) || !existsSync(join(root, 'dist', 'renderer', 'index.html'))) {
    throw new Error('The app is not built. Run `npm run build` before the Electron end-to-end tests.');
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  delete env.ELECTRON_RUN_AS_NODE;
  env.REPORT_DESK_DATA_DIR = dataDir;
  env.REPORT_DESK_E2E = '1';
  // Chromium's sandbox refuses to start as root (CI containers); the page sandbox setting is
  // still checked by the security spec through webPreferences.
  const args = process.getuid?.() === 0 ? ['--no-sandbox', mainScript] : [mainScript];
  return _electron.launch({ executablePath, args, env, cwd: root });
}

export const test = base.extend<AppFixtures>({
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'reportdesk-electron-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  electronApp: async ({ dataDir }, use) => {
    const app = await launchApp(dataDir);
    await use(app);
    await app.close();
  },
  appWindow: async ({ electronApp }, use) => {
    const window = await electronApp.firstWindow();
    await window.waitForLoadState('domcontentloaded');
    await use(window);
  },
});
