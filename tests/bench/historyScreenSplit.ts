/**
 * Where history.screen_100k_ms goes (issue 27), on the bench's own setting (historyScreen.ts):
 *   npx tsx tests/bench/historyScreenSplit.ts [--rounds N] [--profile FILE.cpuprofile]
 * Each round reloads on Settings and clicks History, as the bench does, and prints: the click's
 * wall time; every bridge call the page made from the click to the drawn chart (its start and
 * end in the page, the core's own wall and CPU time for it, the answer's JSON size); the page's
 * main-thread CPU time over the same span and what it ran (a Chromium trace); then
 * `history:periods` with the page's input timed in Node alone. A diagnostic, not a goal.
 */
import { writeFileSync } from 'node:fs';
import type { ContractHandlers } from '../../shared/contract';
import { CPU_CATEGORIES } from './renderer';
import { median, round } from './common';
import { clickToChart, freshPageOnSettings, openHistoryScreenBench } from './historyScreen';
import { mainThreadBreakdown, mainThreadCpuMs } from './traceSummary';

interface CoreCall {
  channel: string;
  input: unknown;
  wallMs: number;
  cpuMs: number;
  bytes: number;
}

interface PageCall {
  channel: string;
  start: number;
  headers: number;
  end: number;
}

/** Records every bridge call the page makes: start, response headers, parsed body (the page's clock). */
const PAGE_RECORDER = `(() => {
  const calls = (globalThis.__bridgeCalls = []);
  const original = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (resource, init) => {
    if (String(resource).indexOf('/__bridge/invoke') < 0) return original(resource, init);
    const call = { channel: JSON.parse(init.body).channel, start: performance.now(), headers: 0, end: 0 };
    calls.push(call);
    return original(resource, init).then((response) => {
      call.headers = performance.now();
      const json = response.json.bind(response);
      response.json = () => json().then((value) => ((call.end = performance.now()), value));
      return response;
    });
  };
})();`;

function timed(handlers: ContractHandlers, into: CoreCall[]): ContractHandlers {
  const wrapped: Record<string, (input: unknown) => unknown> = {};
  for (const [channel, handler] of Object.entries(handlers) as [string, (input: unknown) => unknown][]) {
    wrapped[channel] = async (input: unknown) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const value = await handler(input);
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      into.push({
        channel,
        input,
        wallMs,
        cpuMs: (used.user + used.system) / 1000,
        bytes: JSON.stringify(value ?? null).length,
      });
      return value;
    };
  }
  return wrapped as unknown as ContractHandlers;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const rounds = Number(argv[argv.indexOf('--rounds') + 1] || 5);
  const profileFile = argv.includes('--profile') ? argv[argv.indexOf('--profile') + 1] : null;
  const coreCalls: CoreCall[] = [];
  const { bench, page, preview, close } = await openHistoryScreenBench((h) => timed(h, coreCalls));
  const out = (line: string) => process.stdout.write(line + '\n');
  try {
    await page.addInitScript({ content: PAGE_RECORDER });
    const browser = page.context().browser()!;
    const walls: number[] = [];
    const cpus: number[] = [];
    let periodsInput: unknown = null;
    for (let round_ = 0; round_ < rounds; round_++) {
      // Traced from the reload, so the trace holds the navigation the page's clock counts from.
      await browser.startTracing(page, { categories: CPU_CATEGORIES });
      await freshPageOnSettings(page, preview);
      coreCalls.length = 0;
      await page.evaluate('globalThis.__bridgeCalls.length = 0');
      const { ms, clickedAt } = await clickToChart(page);
      const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
      const calls = (await page.evaluate('globalThis.__bridgeCalls')) as PageCall[];
      const cpu = mainThreadCpuMs(trace, clickedAt + ms, clickedAt);
      walls.push(ms);
      cpus.push(cpu);
      out(`round ${round_ + 1}: click → chart ${round(ms, 1)} ms wall, main thread CPU ${round(cpu, 1)} ms`);
      for (const call of calls) {
        const core = coreCalls.find((c) => c.channel === call.channel);
        if (call.channel === 'history:periods') periodsInput = core?.input;
        out(
          `  ${call.channel.padEnd(22)} ${round(call.start - clickedAt, 1)} → headers ${round(call.headers - clickedAt, 1)} → parsed ${round(call.end - clickedAt, 1)} ms` +
            (core
              ? `; core ${round(core.wallMs, 2)} ms wall, ${round(core.cpuMs, 2)} ms CPU, ${core.bytes} B`
              : ''),
        );
      }
      if (round_ === rounds - 1) out(mainThreadBreakdown(trace, clickedAt + ms, clickedAt));
    }
    out(
      `median of ${rounds}: ${round(median(walls), 1)} ms wall, ${round(median(cpus), 1)} ms main-thread CPU`,
    );
    if (profileFile) {
      await freshPageOnSettings(page, preview);
      const session = await page.context().newCDPSession(page);
      await session.send('Profiler.enable');
      await session.send('Profiler.setSamplingInterval', { interval: 100 });
      await session.send('Profiler.start');
      await clickToChart(page);
      const { profile } = await session.send('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(profile));
      out(`CPU profile of one more click: ${profileFile}`);
    }
    // The same answer in Node alone, without the preview or the page.
    if (periodsInput !== null) {
      const handler = bench.handlers['history:periods'] as (input: unknown) => unknown;
      const wall: number[] = [];
      const cpu: number[] = [];
      let answer: unknown = null;
      for (let i = 0; i < 15; i++) {
        const before = process.cpuUsage();
        const started = performance.now();
        answer = await handler(periodsInput);
        wall.push(performance.now() - started);
        const used = process.cpuUsage(before);
        cpu.push((used.user + used.system) / 1000);
      }
      const periods = (answer as { by: string; periods: unknown[] }) ?? { by: '?', periods: [] };
      out(
        `history:periods ${JSON.stringify(periodsInput)} in Node: by ${periods.by}, ${periods.periods.length} periods, ` +
          `${JSON.stringify(answer).length} B; median ${round(median(wall), 2)} ms wall, ${round(median(cpu), 2)} ms CPU ` +
          `(first ${round(wall[0], 2)} ms)`,
      );
    }
  } finally {
    await close();
  }
}

main().then(
  () => process.exit(0),
  (thrown: unknown) => {
    process.stderr.write(`${thrown instanceof Error ? thrown.stack : String(thrown)}\n`);
    process.exit(1);
  },
);
