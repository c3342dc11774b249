/**
 * The reference service in a child process (serviceChild.ts), for benchmarks: over loopback as
 * a remote service would be, so its JSON work does not count against the client and the cache
 * in the benchmark's own thread (the earlier full-sync figures measured all three on one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./serviceChild.ts', import.meta.url));

export interface RemoteService {
  baseUrl: string;
  apiKey: string;
  /** Replaces the reports with n generated ones. */
  seed(n: number): Promise<void>;
  /** Adds n reports after the newest. */
  add(n: number): Promise<void>;
  /** Every request waits this long before it is answered (0: none). */
  latency(ms: number): Promise<void>;
  /** List requests received so far. */
  listRequests(): Promise<number>;
  stop(): Promise<void>;
}

export async function startRemoteService(): Promise<RemoteService> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const ready = new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the service child exited (${code}) before it was ready`)));
    child.on(
      'message',
      (message: {
        ready?: { baseUrl: string; apiKey: string };
        id?: number;
        value?: unknown;
        error?: string;
      }) => {
        if (message.ready) return resolve(message.ready);
        const waiter = pending.get(message.id ?? -1);
        if (!waiter) return;
        pending.delete(message.id!);
        if (message.error !== undefined) waiter.reject(new Error(message.error));
        else waiter.resolve(message.value);
      },
    );
  });
  const { baseUrl, apiKey } = await ready;
  const ask = (command: string, n = 0) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ id, command, n });
    });
  return {
    baseUrl,
    apiKey,
    seed: async (n) => void (await ask('seed', n)),
    add: async (n) => void (await ask('add', n)),
    latency: async (ms) => void (await ask('latency', ms)),
    listRequests: async () => Number(await ask('requests')),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ id: 0, command: 'stop' });
        // A child that does not stop in time is ended.
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
