/**
 * `npm run stress [-- --seconds N --workers N --seed N]`: several processes share one data dir
 * for a fixed time — app-like processes (one core each) and CLI-like ones (a core per command)
 * — making random profile and key changes, syncs and reads against the reference service,
 * which meanwhile echoes secrets, answers 503s and slow pages, deletes reports during listings,
 * now and then ignores `page`, and for half of the run sends an account record without id. Then it checks the invariants:
 *
 *  - profiles.json is the serial application of the acknowledged changes: every acknowledged
 *    add is there unless an acknowledged remove took it, nothing else is there, and each
 *    profile's name is one that a serial order of the acknowledged changes can leave last;
 *  - the keychain holds exactly one entry per profile, with a key that order can leave last;
 *  - after a final sync of every profile the cache holds exactly the service's reports;
 *  - `PRAGMA integrity_check` is ok; no key and no password is in any file of the data dir,
 *    nor in anything a process printed.
 *
 * Prints its figures as JSON lines like the benchmarks (tests/bench/common.ts) and exits 1
 * when there is any violation. Needs the real keychain: it runs under scripts/with-keyring.sh.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { KEYCHAIN_SERVICE_ENV } from '../../electron/cli/session';
import { KeytarKeyStore } from '../../electron/core/keys/keyStore';
import { createCoreServices, dataPaths } from '../../electron/core/services';
import { startDemoService, type DemoAccount } from '../../electron/demo-service/server';
import { emit, info, note, tempDir } from '../bench/common';
import { findSecrets } from '../helpers/secrets';
import type { Ack } from './worker';

interface KeytarModule {
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
  deletePassword(service: string, account: string): Promise<boolean>;
}
const keytar = createRequire(import.meta.url)('keytar') as KeytarModule;

const BENCH = 'stress';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value <= 0) {
    process.stderr.write(`--${name} needs a whole number above 0, like --${name} ${fallback}.\n`);
    process.exit(2);
  }
  return value;
}

const seconds = argument('seconds', 60);
const workers = argument('workers', 4);
const seed = argument('seed', Date.now() % 1_000_000);
const KEYS = [`stress-key-alpha-${randomUUID()}`, `stress-key-beta-${randomUUID()}`];
const ACCOUNTS: DemoAccount[] = [
  { apiKey: KEYS[0], account: { id: 1, name: 'Alpha', email: 'alpha@example.com' } },
  { apiKey: KEYS[1], account: { id: 2, name: 'Beta', email: 'beta@example.com' } },
];
const PASSWORD = `stress-password-${randomUUID()}`;

const violations: string[] = [];
const violation = (text: string) => violations.push(text);

const dir = tempDir('stress');
const keychainService = `ReportDesk-stress-${randomUUID()}`;
const service = await startDemoService({
  accounts: ACCOUNTS,
  reportsPerAccount: 120,
  modes: { echoSecrets: true },
});
note(BENCH, `seed ${seed}, ${workers} processes for ${seconds} s, data dir ${dir.path}`);

// Careless-service behaviour during the run: a 503 and two slow pages every half second; every
// 2 s a report deleted while a listing is under way; every 5 s, for one tick, `page` ignored.
let tick = 0;
const faultTimer = setInterval(() => {
  tick++;
  service.faults.add({ method: 'GET', path: '/api/v1/reports', status: 503, times: 1 });
  service.faults.add({ method: 'GET', path: '/api/v1/reports', delayMs: 200, passThrough: true, times: 2 });
  if (tick % 4 === 0) service.faults.deleteDuringListing({ afterPage: 1 });
  service.faults.ignorePage(tick % 10 === 0);
}, 500);
const modeTimer = setTimeout(() => (service.modes.accountWithoutId = true), (seconds * 1000) / 2);

// A report with a password, so that echoed passwords are in play from the start.
await fetch(`${service.baseUrl}/api/v1/reports`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${KEYS[0]}`, 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ url: 'https://stress.example', privacy: '2', password: PASSWORD }),
});

const acks: Ack[] = [];
const printed: string[] = [];
const done: Record<string, number> = {};

function runWorker(kind: 'app' | 'cli', index: number): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'tests/stress/worker.ts',
      kind,
      String(index),
      dir.path,
      service.baseUrl,
      String(seconds),
      String(seed + index),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, STRESS_KEYS: KEYS.join(','), [KEYCHAIN_SERVICE_ENV]: keychainService },
    },
  );
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    printed.push(chunk.toString());
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      let parsed: Ack | { worker: string; done: Record<string, number> };
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        violation(`process ${index} printed something that is not a JSON line: ${line.slice(0, 120)}`);
        continue;
      }
      if ('done' in parsed) {
        for (const [what, n] of Object.entries(parsed.done)) done[what] = (done[what] ?? 0) + n;
      } else acks.push(parsed);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    printed.push(chunk.toString());
    process.stderr.write(chunk);
  });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? -1)));
}

const codes = await Promise.all(
  Array.from({ length: workers }, (_, i) => runWorker(i % 2 === 0 ? 'app' : 'cli', i + 1)),
);
clearInterval(faultTimer);
clearTimeout(modeTimer);
service.faults.clear();
codes.forEach((code, i) => code !== 0 && violation(`process ${i + 1} ended with exit code ${code}`));

// ---- Invariant: profiles.json = the serial application of the acknowledged changes ----------

interface SavedProfile {
  id: string;
  name: string;
}
const paths = dataPaths(dir.path);
const file = existsSync(paths.profiles)
  ? (JSON.parse(readFileSync(paths.profiles, 'utf8')) as {
      activeId: string | null;
      profiles: SavedProfile[];
    })
  : { activeId: null, profiles: [] };
const present = new Map(file.profiles.map((p) => [p.id, p]));
const added = new Map(acks.filter((a) => a.op === 'add').map((a) => [a.id, a]));
const removed = new Set(acks.filter((a) => a.op === 'remove').map((a) => a.id));

for (const [id, add] of added) {
  if (!removed.has(id) && !present.has(id))
    violation(`the acknowledged add of "${add.name}" (${id}) is lost`);
}
for (const id of removed) if (present.has(id)) violation(`the removed profile ${id} came back`);
for (const id of present.keys())
  if (!added.has(id)) violation(`profile ${id} was never acknowledged as added`);
if (file.activeId !== null && !present.has(file.activeId))
  violation(`the active id ${file.activeId} names no profile`);

/**
 * The values a serial order of the acknowledged changes can leave last: a change is ruled out
 * only when another one began after it was acknowledged.
 */
function possibleLast<T>(changes: Ack[], value: (ack: Ack) => T | undefined): Set<T> {
  const out = new Set<T>();
  for (const change of changes) {
    const v = value(change);
    if (v !== undefined && !changes.some((later) => value(later) !== undefined && later.t0 > change.t1))
      out.add(v);
  }
  return out;
}

const entries = new Map(
  (await keytar.findCredentials(keychainService)).map(({ account, password }) => [account, password]),
);
for (const [id, profile] of present) {
  const changes = acks.filter((a) => a.id === id);
  const names = possibleLast(changes, (a) => (a.op === 'add' || a.op === 'rename' ? a.name : undefined));
  if (!names.has(profile.name)) {
    violation(`profile ${id} is named "${profile.name}", which no serial order of its changes leaves`);
  }
  const keys = possibleLast(changes, (a) => (a.op === 'add' || a.op === 'setKey' ? a.key : undefined));
  const stored = entries.get(id);
  if (stored === undefined) violation(`profile ${id} has no keychain entry`);
  else if (!keys.has(KEYS.indexOf(stored))) violation(`profile ${id} holds a key no serial order leaves`);
}
// ---- Invariant: keychain entries = profiles -------------------------------------------------
for (const id of entries.keys())
  if (!present.has(id)) violation(`keychain entry ${id} belongs to no profile`);

// ---- Invariant: after a final sync, the cache equals the service ----------------------------
async function serviceIds(key: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page <= 100; page++) {
    const reply = await fetch(
      `${service.baseUrl}/api/v1/reports?per_page=100&sort_by=id&sort=asc&page=${page}`,
      {
        headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
      },
    );
    const body = (await reply.json()) as { data: { id: number }[] };
    if (body.data.length === 0) break;
    ids.push(...body.data.map((r) => String(r.id)));
  }
  return ids.sort();
}

const services = await createCoreServices({
  dataDir: dir.path,
  keyStore: new KeytarKeyStore({ service: keychainService }),
  probeIntervalMs: 0,
});
for (const [id, profile] of present) {
  try {
    services.connections.pin(id);
    await services.handlers['cache:sync'](undefined);
  } catch (thrown) {
    violation(
      `the final sync of "${profile.name}" failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
    );
    continue;
  }
  const key = entries.get(id);
  const expected = key === undefined ? [] : await serviceIds(key);
  const db = new Database(paths.cache, { readonly: true });
  const cached = (db.prepare('SELECT id FROM reports WHERE scope = ?').all(id) as { id: string }[])
    .map((row) => row.id)
    .sort();
  db.close();
  if (JSON.stringify(cached) !== JSON.stringify(expected)) {
    violation(
      `the cache of "${profile.name}" holds ${cached.length} reports, the service ${expected.length}`,
    );
  }
}
await services.close();

// ---- Invariant: the database is sound, and no secret reached a file or an output -------------
if (existsSync(paths.cache)) {
  const db = new Database(paths.cache, { readonly: true });
  const check = db.pragma('integrity_check', { simple: true });
  db.close();
  if (check !== 'ok') violation(`integrity_check: ${String(check)}`);
}
for (const hit of findSecrets(dir.path, [...KEYS, PASSWORD], printed)) violation(`a secret leaked: ${hit}`);

// ---- Figures ------------------------------------------------------------------------------
const operations = Object.entries(done)
  .filter(([what]) => what.endsWith(':done'))
  .reduce((sum, [, n]) => sum + n, 0);
info(BENCH, 'processes', workers, 'processes');
info(BENCH, 'duration', seconds, 's');
info(BENCH, 'operations done', operations, 'operations');
info(BENCH, 'changes acknowledged', acks.length, 'changes');
info(BENCH, 'profiles at the end', present.size, 'profiles');
for (const [what, n] of Object.entries(done).sort()) info(BENCH, what, n, 'operations');
emit({
  bench: BENCH,
  metric: 'violations',
  value: violations.length,
  unit: 'count',
  goal: '0',
  met: violations.length === 0,
});
for (const text of violations) note(BENCH, `violation: ${text}`);

await service.stop();
for (const id of entries.keys()) await keytar.deletePassword(keychainService, id).catch(() => false);
// Kept when something is wrong, for a look at the files.
if (violations.length === 0) dir.remove();
else note(BENCH, `the data dir is kept: ${dir.path}`);
process.exit(violations.length === 0 ? 0 : 1);
