/**
 * `npm run bench` runs every benchmark in turn; `npm run bench -- offline-query` runs one.
 * Each prints one JSON line per measurement on stdout:
 *   {"bench": "...", "metric": "...", "value": N, "unit": "...", "goal": "...", "met": true|false}
 * Progress and explanations go to stderr. The exit code is 1 when a bench could not run (a
 * missed goal is a figure, not a crash: read "met").
 */
import { runExport } from './export';
import { runFullSync } from './fullSync';
import { runGatewayOverhead } from './gatewayOverhead';
import { runHistory } from './history';
import { runHistoryScreen } from './historyScreen';
import { runMemory } from './memory';
import { runMillion } from './million';
import { runOfflineQuery } from './offlineQuery';
import { runRefresh } from './refresh';
import { runRenderer } from './renderer';

const BENCHES: Record<string, () => Promise<void>> = {
  'gateway-overhead': runGatewayOverhead,
  'offline-query': runOfflineQuery,
  'full-sync': runFullSync,
  refresh: runRefresh,
  export: runExport,
  renderer: runRenderer,
  memory: runMemory,
  million: runMillion,
  history: runHistory,
  'history-screen': runHistoryScreen,
};

async function main(names: string[]): Promise<number> {
  const unknown = names.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    process.stderr.write(
      `Unknown bench: ${unknown.join(', ')}. Choose from: ${Object.keys(BENCHES).join(', ')} (or none for all).\n`,
    );
    return 2;
  }
  let failed = 0;
  for (const name of names.length > 0 ? names : Object.keys(BENCHES)) {
    process.stderr.write(`[${name}] running…\n`);
    try {
      await BENCHES[name]();
    } catch (thrown) {
      failed += 1;
      const reason = thrown instanceof Error ? thrown.message : String(thrown);
      process.stderr.write(`[${name}] could not run: ${reason}\n`);
    }
  }
  return failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code));
