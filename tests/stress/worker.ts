/**
 * One stress process (started by tests/stress/run.ts): for a fixed time, random profile
 * changes, key changes, syncs and reads against the shared data dir, as the desktop app does
 * ("app": one core for the whole run) or as CLI runs do ("cli": a fresh core per command).
 * Every acknowledged change is printed as one JSON line on stdout (see `Ack`), with the time
 * it was asked for and the time it was acknowledged, for the invariant checks.
 *
 * Arguments: <app|cli> <worker number> <data dir> <base URL> <seconds> <seed>; the API keys
 * come in STRESS_KEYS (comma-separated), the keychain service in REPORT_DESK_KEYCHAIN_SERVICE.
 */
import { runCli } from '../../electron/cli/runCli';
import { KEYCHAIN_SERVICE_ENV } from '../../electron/cli/session';
import { KeytarKeyStore } from '../../electron/core/keys/keyStore';
import { createCoreServices } from '../../electron/core/services';
import { AppFailure } from '../../shared/errors';

export interface Ack {
  worker: string;
  op: 'add' | 'rename' | 'remove' | 'setKey';
  id: string;
  name?: string;
  /** Index into STRESS_KEYS: never the key itself. */
  key?: number;
  t0: number;
  t1: number;
}

/** Operations that were done or refused, by kind: printed at the end as `{"done": …}`. */
const tally: Record<string, number> = {};
const count = (what: string) => (tally[what] = (tally[what] ?? 0) + 1);

const [kind, workerText, dataDir, baseUrl, secondsText, seedText] = process.argv.slice(2);
const keys = (process.env.STRESS_KEYS ?? '').split(',');
const worker = `${kind}${workerText}`;
const keychainService = process.env[KEYCHAIN_SERVICE_ENV] ?? 'ReportDesk';

// A small deterministic PRNG (mulberry32): a failing run can be repeated with its seed.
let state = Number(seedText) >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];

let serial = 0;
const freshName = () => `${worker}-${++serial}`;
const ack = (entry: Omit<Ack, 'worker'>) => process.stdout.write(JSON.stringify({ worker, ...entry }) + '\n');

function refused(thrown: unknown, op: string): void {
  const kindOf = thrown instanceof AppFailure ? thrown.error.kind : 'exception';
  count(`${op}:refused:${kindOf}`);
  if (kindOf === 'internal' || kindOf === 'exception') {
    process.stderr.write(`[${worker}] ${op}: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`);
  }
}

async function appWorker(deadline: number): Promise<void> {
  const services = await createCoreServices({
    dataDir,
    keyStore: new KeytarKeyStore({ service: keychainService }),
    probeIntervalMs: 0,
    client: { retry: { maxAttempts: 3, baseDelayMs: 5 } },
  });
  const { handlers, profiles } = services;
  try {
    while (Date.now() < deadline) {
      const roll = random();
      const target = pick(profiles.list());
      const t0 = Date.now();
      const op =
        roll < 0.25
          ? 'add'
          : roll < 0.4
            ? 'rename'
            : roll < 0.5
              ? 'remove'
              : roll < 0.6
                ? 'setKey'
                : roll < 0.67
                  ? 'activate'
                  : roll < 0.8
                    ? 'sync'
                    : roll < 0.9
                      ? 'list'
                      : 'account';
      try {
        if (op === 'add') {
          const key = Math.floor(random() * keys.length);
          const name = freshName();
          const view = await handlers['profiles:add']({
            name,
            baseUrl,
            allowInsecureHttp: false,
            apiKey: keys[key],
            sessionOnly: false,
          });
          ack({ op, id: view.id, name, key, t0, t1: Date.now() });
        } else if (op === 'rename' && target) {
          const name = freshName();
          await handlers['profiles:update']({ id: target.id, name });
          ack({ op, id: target.id, name, t0, t1: Date.now() });
        } else if (op === 'remove' && target) {
          await handlers['profiles:remove']({ id: target.id });
          ack({ op, id: target.id, t0, t1: Date.now() });
        } else if (op === 'setKey' && target) {
          const key = Math.floor(random() * keys.length);
          await handlers['profiles:setKey']({ id: target.id, apiKey: keys[key], sessionOnly: false });
          ack({ op, id: target.id, key, t0, t1: Date.now() });
        } else if (op === 'activate' && target) {
          await handlers['profiles:activate']({ id: target.id });
        } else if (op === 'sync') {
          await handlers['cache:sync'](undefined);
        } else if (op === 'list') {
          await handlers['reports:list']({ per_page: 25, page: 1 + Math.floor(random() * 3) });
        } else if (op === 'account') {
          await handlers['account:get'](undefined);
        } else {
          continue;
        }
        count(`${op}:done`);
      } catch (thrown) {
        refused(thrown, op);
      }
    }
  } finally {
    await services.close();
  }
}

async function cliWorker(deadline: number): Promise<void> {
  const env = {
    REPORT_DESK_DATA_DIR: dataDir,
    REPORT_DESK_RETRY_BASE_MS: '5',
    [KEYCHAIN_SERVICE_ENV]: keychainService,
  };
  const run = async (args: string[], stdin = '') => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: [stdin],
      stdinIsTTY: false,
      env,
    });
    return { code, stdout, stderr };
  };
  while (Date.now() < deadline) {
    const roll = random();
    const t0 = Date.now();
    const op =
      roll < 0.3 ? 'add' : roll < 0.45 ? 'remove' : roll < 0.55 ? 'use' : roll < 0.75 ? 'sync' : 'list';
    let result: Awaited<ReturnType<typeof run>>;
    if (op === 'add') {
      const key = Math.floor(random() * keys.length);
      const name = freshName();
      result = await run(['profiles', 'add', name, '--base-url', baseUrl, '--json'], keys[key]);
      if (result.code === 0) {
        const view = JSON.parse(result.stdout) as { id: string };
        ack({ op, id: view.id, name, key, t0, t1: Date.now() });
      }
    } else if (op === 'remove' || op === 'use') {
      const listed = await run(['profiles', 'list', '--json']);
      const state = JSON.parse(listed.stdout || '{"profiles":[]}') as {
        profiles: { id: string; name: string }[];
      };
      const target = pick(state.profiles);
      if (!target) continue;
      const t = Date.now();
      result = await run(
        op === 'remove'
          ? ['profiles', 'remove', target.name, '--yes', '--json']
          : ['profiles', 'use', target.name],
      );
      if (result.code === 0 && op === 'remove') ack({ op, id: target.id, t0: t, t1: Date.now() });
    } else if (op === 'sync') {
      result = await run(['cache', 'sync']);
    } else {
      result = await run(['reports', 'list', '--per-page', '25']);
    }
    if (result.code === 0) count(`${op}:done`);
    else {
      count(`${op}:refused:exit${result.code}`);
      // Expected refusals (a profile removed meanwhile, no profile yet) say so in a sentence.
      if (/could not be saved|internal|Error:/.test(result.stderr)) {
        process.stderr.write(`[${worker}] ${op}: ${result.stderr.trim()}\n`);
      }
    }
  }
}

const deadline = Date.now() + Number(secondsText) * 1000;
await (kind === 'app' ? appWorker(deadline) : cliWorker(deadline));
process.stdout.write(JSON.stringify({ worker, done: tally }) + '\n');
