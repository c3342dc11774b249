/**
 * Two or more built renderers side by side on one machine, in one run (issue 22: a loaded
 * machine's figures are only comparable within a run):
 *
 *   npx tsx tests/bench/rendererCompare.ts [--rounds N] [--cpu] [--polled] [--trace DIR] [--profile DIR] dirA dirB …
 *
 * Each dir is a `vite build` output (e.g. main's and a branch's). One synced profile answers from the cache for all of
 * them; each renderer gets its own preview server and page, and the reloads alternate between
 * them (A, B, …, then B, …, A, so neither is always first). Prints for each the navigation →
 * 100 rows samples as the renderer bench reads them (painted, and the first frame with them,
 * reported by the page: rowsWatch.ts), the bridge calls of the last load by channel; with --cpu
 * the main thread's CPU time to the rows (a traced load of its own each round), with --polled
 * the figure as Playwright's polling read it until issue 28 (a load of its own each round), with
 * --trace a Chromium performance trace of one more load each (DIR/<name>.json) and the main
 * thread's time before the rows by event, with --profile V8's sampling profile of one more load
 * each (DIR/<name>.cpuprofile).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startPreviewServer, type PreviewServer } from '../../electron/preview/server';
import { startDemoService } from '../../electron/demo-service/server';
import { median, round } from './common';
import { coreWithProfile, type BenchCore } from './core';
import { cpuToRows, reloadUntilPainted, reloadWithHundredRows, REPORTS, startProfile } from './renderer';
import { RowsWatch } from './rowsWatch';
import { mainThreadBreakdown } from './traceSummary';
import { CHROMIUM_LAUNCH_OPTIONS } from '../helpers/chromium';

interface Variant {
  name: string;
  dir: string;
  preview?: PreviewServer;
  page?: Page;
  watch?: RowsWatch;
  loads: number[];
  seen: number[];
  cpu: number[];
  polled: number[];
  channels: string[];
  /** performance.mark()s a build under investigation sets, per load: name → ms after navigation. */
  marks: Map<string, number[]>;
}

const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink',
  'blink.user_timing',
  'loading',
  'disabled-by-default-v8.compile',
];

function parseArgs(argv: string[]): {
  rounds: number;
  traceDir: string | null;
  profileDir: string | null;
  cpuTime: boolean;
  polled: boolean;
  dirs: string[];
} {
  let cpuTime = false;
  let polled = false;
  let rounds = 10;
  let traceDir: string | null = null;
  let profileDir: string | null = null;
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') rounds = Number(argv[++i]);
    else if (argv[i] === '--trace') traceDir = resolve(argv[++i]);
    else if (argv[i] === '--profile') profileDir = resolve(argv[++i]);
    else if (argv[i] === '--cpu') cpuTime = true;
    else if (argv[i] === '--polled') polled = true;
    else dirs.push(argv[i]);
  }
  if (dirs.length === 0 || !(rounds > 0)) {
    throw new Error(
      'Usage: rendererCompare.ts [--rounds N] [--cpu] [--polled] [--trace DIR] [--profile DIR] dirA dirB …',
    );
  }
  return { rounds, traceDir, profileDir, cpuTime, polled, dirs };
}

/** The page's performance marks (a build under investigation sets them): name and ms after navigation. */
function marksOf(page: Page): Promise<[string, number][]> {
  return page.evaluate(() =>
    performance.getEntriesByType('mark').map((m) => [m.name, m.startTime] as [string, number]),
  );
}

/** The channel of each bridge call the page makes, in the order it makes them. */
function recordChannels(page: Page, into: string[]): void {
  page.on('request', (request) => {
    if (!request.url().endsWith('/__bridge/invoke')) return;
    try {
      into.push(String((request.postDataJSON() as { channel?: unknown }).channel));
    } catch {
      into.push('?');
    }
  });
}

async function main(): Promise<void> {
  const { rounds, traceDir, profileDir, cpuTime, polled, dirs } = parseArgs(process.argv.slice(2));
  const variants: Variant[] = dirs.map((dir, i) => ({
    name: `${i + 1}:${basename(dir)}`,
    dir: resolve(dir),
    loads: [],
    seen: [],
    cpu: [],
    polled: [],
    channels: [],
    marks: new Map(),
  }));
  let bench: BenchCore | null = null;
  let browser: Browser | null = null;
  try {
    const service = await startDemoService({ reportsPerAccount: 10 });
    try {
      service.seedReports(REPORTS);
      bench = await coreWithProfile(service, 'renderer-compare');
      await bench.handlers['cache:sync'](undefined);
    } finally {
      await service.stop();
    }
    browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
    for (const variant of variants) {
      variant.preview = await startPreviewServer({
        handlers: bench.handlers,
        events: bench.core.events,
        rendererDir: variant.dir,
      });
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
      variant.watch = await RowsWatch.install(context);
      variant.page = await context.newPage();
      recordChannels(variant.page, variant.channels);
      await variant.page.goto(variant.preview.url);
      // As the bench: the first load also finds out that the service is gone, and is not counted.
      await reloadWithHundredRows(variant.page, bench.profileId);
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        variant.channels.length = 0;
        const rows = await reloadUntilPainted(variant.page!, variant.watch!, bench.profileId);
        variant.loads.push(rows.painted);
        variant.seen.push(rows.seen);
        for (const [name, at] of await marksOf(variant.page!))
          variant.marks.set(name, [...(variant.marks.get(name) ?? []), at]);
        if (cpuTime) variant.cpu.push(await cpuToRows(variant.page!, variant.watch!, bench.profileId));
        if (polled) variant.polled.push(await reloadWithHundredRows(variant.page!, bench.profileId));
      }
    }
    for (const variant of variants) {
      const loads = variant.loads.map((ms) => round(ms, 0));
      process.stdout.write(
        `${variant.name}: rows painted (the bench's figure): median ${round(median(variant.loads), 1)} ms (${loads.join(', ')})\n`,
      );
      const seen = variant.seen.map((ms) => round(ms, 0));
      process.stdout.write(
        `  first frame with the rows, seen in the page: median ${round(median(variant.seen), 1)} ms (${seen.join(', ')})\n`,
      );
      if (variant.polled.length > 0) {
        const polledMs = variant.polled.map((ms) => round(ms, 0));
        process.stdout.write(
          `  polled by Playwright (until issue 28): median ${round(median(variant.polled), 1)} ms (${polledMs.join(', ')})\n`,
        );
      }
      if (variant.cpu.length > 0) {
        const cpu = variant.cpu.map((ms) => round(ms, 0));
        process.stdout.write(
          `  main thread CPU to the rows: median ${round(median(variant.cpu), 1)} ms (${cpu.join(', ')})\n`,
        );
      }
      process.stdout.write(`  last load: ${await startProfile(variant.page!)}\n`);
      process.stdout.write(`  bridge calls: ${variant.channels.join(', ')}\n`);
      if (variant.marks.size > 0) {
        const each = [...variant.marks].map(
          ([name, at]) => `${name} ${round(median(at), 1)} (${at.map((ms) => round(ms, 0)).join(' ')})`,
        );
        process.stdout.write(`  marks, median (each timed load): ${each.join('; ')}\n`);
      }
    }
    if (traceDir) {
      mkdirSync(traceDir, { recursive: true });
      for (const variant of variants) {
        await browser.startTracing(variant.page!, { categories: TRACE_CATEGORIES });
        const rowsAt = (await reloadUntilPainted(variant.page!, variant.watch!, bench.profileId)).painted;
        const trace = await browser.stopTracing();
        const file = join(traceDir, `${variant.name.replace(/[^\w.-]/g, '_')}.json`);
        writeFileSync(file, trace);
        process.stdout.write(`${variant.name}: traced load, rows at ${round(rowsAt, 1)} ms → ${file}\n`);
        process.stdout.write(mainThreadBreakdown(JSON.parse(trace.toString('utf8')), rowsAt));
      }
    }
    if (profileDir) {
      // V8's sampling profiler over one more load each (a .cpuprofile for DevTools or a script).
      mkdirSync(profileDir, { recursive: true });
      for (const variant of variants) {
        const session = await variant.page!.context().newCDPSession(variant.page!);
        await session.send('Profiler.enable');
        await session.send('Profiler.setSamplingInterval', { interval: 100 });
        await session.send('Profiler.start');
        const rowsAt = (await reloadUntilPainted(variant.page!, variant.watch!, bench.profileId)).painted;
        const { profile } = await session.send('Profiler.stop');
        const file = join(profileDir, `${variant.name.replace(/[^\w.-]/g, '_')}.cpuprofile`);
        writeFileSync(file, JSON.stringify({ ...profile, rowsAt }));
        process.stdout.write(`${variant.name}: profiled load, rows at ${round(rowsAt, 1)} ms → ${file}\n`);
      }
    }
  } finally {
    await browser?.close();
    for (const variant of variants) await variant.preview?.stop();
    await bench?.close();
  }
}

main().then(
  () => process.exit(0),
  (thrown: unknown) => {
    process.stderr.write(`${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}\n`);
    process.exit(1);
  },
);
