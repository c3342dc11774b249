/**
 * Run by tests/bench/remoteService.ts as
 *   node --import tsx tests/bench/serviceChild.ts
 * The reference service in its own process, as a remote service would be: the benchmark's
 * client and cache no longer share a thread with it. Commands arrive over the IPC channel
 * ({id, command, args}); each answer is {id, value} or {id, error}.
 */
import { startDemoService } from '../../electron/demo-service/server';

const service = await startDemoService({ reportsPerAccount: 0 });

type Command = 'seed' | 'add' | 'latency' | 'requests' | 'count' | 'stop';

const commands: Record<Command, (n: number) => unknown> = {
  seed: (n) => service.seedReports(n),
  add: (n) => service.addReports(n),
  latency: (ms) => service.faults.setLatency(ms),
  requests: () => service.requests.filter((r) => r.path === '/api/v1/reports').length,
  count: () => service.reportCount(),
  stop: () => setImmediate(() => void service.stop().then(() => process.exit(0))),
};

process.on('message', (message: { id: number; command: Command; n?: number }) => {
  try {
    process.send?.({ id: message.id, value: commands[message.command](message.n ?? 0) ?? null });
  } catch (thrown) {
    process.send?.({ id: message.id, error: thrown instanceof Error ? thrown.message : String(thrown) });
  }
});
process.send?.({ ready: { baseUrl: service.baseUrl, apiKey: service.apiKey } });
