/**
 * `npm run preview`: the real core (profiles, keychain, SQLite cache) behind the preview bridge,
 * serving the renderer built by `vite build`. Prints the one URL that opens it.
 *
 *   tsx electron/preview/run.ts [--data-dir DIR] [--port N] [--lang CODE]
 *
 * The data dir defaults to .tmp/preview-data, apart from the desktop app's own data. `--lang`
 * starts the page in any shipped or pseudo language (en-XA, ar-XB) for this run; otherwise it
 * follows the browser's languages and Settings › Language.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EntryUsageError, parseEntryArgs, parseLanguage, parsePort } from '../core/entryArgs';
import { createLogger } from '../core/log';
import { MAINS_POWER } from '../core/offline/power';
import { createCoreServices } from '../core/services';
import { inProcessDemoLauncher } from '../demo-service/launcher';
import { startPreviewServer } from './server';
import { settledLanguage, type Language } from '../../shared/i18n/languages';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const rendererDir = join(repoRoot, 'dist', 'renderer');

async function main(): Promise<number> {
  let values: { 'data-dir'?: string; port?: string; lang?: string };
  let port: number;
  let runLanguage: Language | null;
  try {
    values = parseEntryArgs(process.argv.slice(2), {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      lang: { type: 'string' },
    });
    port = parsePort(values.port, 0);
    runLanguage = parseLanguage(values.lang);
  } catch (thrown) {
    if (!(thrown instanceof EntryUsageError)) throw thrown;
    console.error(thrown.message);
    console.error('Usage: tsx electron/preview/run.ts [--data-dir DIR] [--port N] [--lang CODE]');
    return 2;
  }
  if (!existsSync(join(rendererDir, 'index.html'))) {
    console.error(
      `${rendererDir}/index.html is missing. Run npm run preview, which builds the renderer first.`,
    );
    return 1;
  }
  const dataDir = resolve(values['data-dir'] ?? join(repoRoot, '.tmp', 'preview-data'));
  const logger = createLogger('preview', (line) => console.error(line));

  const core = await createCoreServices({
    dataDir,
    logger,
    demoLauncher: inProcessDemoLauncher,
    // "Keep available offline" runs here too; a browser says nothing about the battery.
    keepOffline: { power: MAINS_POWER },
    // The preview is never packaged: the reliability tests may name a crash point.
    crashPointsFrom: process.env,
    // The system's languages are the browser's (the page reads them); --lang wins for this run.
    language: { runLanguage },
  });
  let server;
  try {
    server = await startPreviewServer({
      handlers: core.handlers,
      events: core.events,
      rendererDir,
      port,
      logger: logger.child('server'),
      documentLanguage: () => settledLanguage(core.language.state()),
    });
  } catch (thrown) {
    await core.close();
    throw thrown;
  }
  const running = server;
  console.log(`ReportDesk preview (data in ${dataDir})`);
  console.log(`Open: ${running.url}`);

  await new Promise<void>((done) => {
    const stop = (signal: NodeJS.Signals) => {
      console.error(`${signal}: stopping the preview…`);
      // A second Ctrl+C while stopping means "now".
      process.once(signal, () => process.exit(130));
      running
        .stop()
        .then(() => core.close())
        .finally(done);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (thrown: unknown) => {
    console.error(
      `The preview could not start: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
    );
    process.exit(1);
  },
);
