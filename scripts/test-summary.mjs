// Totals the JSON reports of every test run (Vitest and Playwright) into one closing line,
// "tests: N passed, N failed, N skipped", so a reader (or CI) sees what actually ran — and on
// which runtimes: the Node the tests ran on (test.sh runs this script on the same PATH) and the
// Electron the app is built for, with whether its runtime was there to run the Electron tests.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { electronPackageVersion, installedElectronBinary } from './electron-runtime.mjs';

const dir = process.argv[2] ?? 'test-results/summary';
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
for (const file of existsSync(dir) ? readdirSync(dir).sort() : []) {
  if (!file.endsWith('.json')) continue;
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  let p, f, s;
  if (report.stats && 'expected' in report.stats) {
    // Playwright: flaky tests passed on a retry; the configs allow none, but count them as passed.
    p = report.stats.expected + report.stats.flaky;
    f = report.stats.unexpected;
    s = report.stats.skipped;
  } else {
    // Vitest
    p = report.numPassedTests;
    f = report.numFailedTests;
    s = report.numPendingTests + report.numTodoTests;
  }
  lines.push(`  ${file.replace(/\.json$/, '')}: ${p} passed, ${f} failed, ${s} skipped`);
  passed += p;
  failed += f;
  skipped += s;
}
console.log(lines.join('\n'));
const electronRuntime = installedElectronBinary() ? 'runtime installed' : 'runtime not installed';
console.log(
  `runtimes: Node ${process.versions.node}, Electron ${electronPackageVersion() ?? '?'} (${electronRuntime})`,
);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
