/**
 * Run by tests/bench/memory.ts as
 *   node --expose-gc --import tsx tests/bench/memoryChild.ts <data dir> <base URL> <key> [stride]
 * Opens the core on a data dir whose cache already holds the reports, walks every page at
 * per_page 100 through 'reports:list' (offline: nothing listens at the base URL), and prints
 * one JSON line: pages, reports and memory figures (the resident size after the walk as it
 * leaves it, and after a forced garbage collection). With a stride n > 1 it reads pages 1,
 * 1 + n, 1 + 2n, … and the last one (a million reports are 10,000 pages).
 */
import { dispatch } from '../../electron/core/ipc/dispatch';
import { MemoryKeyStore } from '../../electron/core/keys/keyStore';
import { createCoreServices } from '../../electron/core/services';
import type { ReportPageResult } from '../../shared/contract';
import type { MemoryChildReport } from './memory';

const [dataDir, baseUrl, apiKey, strideArgument] = process.argv.slice(2);
const stride = Math.max(1, Number(strideArgument ?? 1) || 1);
const settle = () => (globalThis as { gc?: () => void }).gc?.();

settle();
const core = await createCoreServices({
  dataDir,
  keyStore: new MemoryKeyStore(),
  probeIntervalMs: 0,
  fixedConnection: { baseUrl, apiKey, allowInsecureHttp: false },
  client: { timeoutMs: 2_000, retry: { maxAttempts: 1 } },
});
settle();
const rssStartBytes = process.memoryUsage().rss;

let pages = 0;
let reports = 0;
for (let page = 1; ;) {
  const result = await dispatch(core.handlers, 'reports:list', { per_page: 100, page });
  if (!result.ok) throw new Error(`page ${page}: ${result.error.message}`);
  const value = result.value as ReportPageResult;
  if (value.source !== 'cache') throw new Error(`page ${page} came from ${value.source}, not the cache`);
  pages += 1;
  reports += value.reports.length;
  if (value.lastPage === null || page >= value.lastPage) break;
  page = Math.min(page + stride, value.lastPage);
}
// As the walk leaves it, then after a forced collection (what the core itself still holds).
const rssAfterWalkNoGcBytes = process.memoryUsage().rss;
settle();
const usage = process.memoryUsage();
const report: MemoryChildReport = {
  pages,
  reports,
  rssStartBytes,
  rssAfterWalkBytes: usage.rss,
  rssAfterWalkNoGcBytes,
  heapUsedAfterWalkBytes: usage.heapUsed,
};
await core.close();
process.stdout.write(JSON.stringify(report) + '\n');
