/**
 * An offline guess of a weak API key against the cache: the scope stored in every cached row of
 * a key given in REPORT_DESK_API_KEY used to be sha256(base URL + key), which anyone who can read
 * cache.sqlite can test guesses against. Real CLI processes, a real SQLite file, real races.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../shared/contract';
import { ReportCache } from '../../electron/core/cache/reportCache';
import { loadScopeSalt, saltedScope, SCOPE_SALT_FILE } from '../../electron/core/cache/scopeSalt';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { spawnCliCaptured } from '../helpers/cli';
import { generateReports } from '../fixtures/generatedReports';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WEAK_KEY = 'password1';
const REPORTS = 30;
const unsaltedScope = (baseUrl: string, key: string) =>
  'env-' + createHash('sha256').update(`${baseUrl}\n${key}`).digest('hex').slice(0, 32);

let service: DemoService;
const root = mkdtempSync(join(tmpdir(), 'report-desk-salt-'));

beforeAll(async () => {
  service = await startDemoService({
    accounts: [{ apiKey: WEAK_KEY, account: { id: 1, name: 'Weak' } }],
    reportsPerAccount: REPORTS,
  });
});
afterAll(async () => {
  await service.stop();
  rmSync(root, { recursive: true, force: true });
});

function cli(args: string[], dataDir: string) {
  return spawnCliCaptured(args, {
    REPORT_DESK_DATA_DIR: dataDir,
    REPORT_DESK_BASE_URL: service.baseUrl,
    REPORT_DESK_API_KEY: WEAK_KEY,
  });
}

function scopesIn(dataDir: string): string[] {
  const db = new Database(join(dataDir, 'cache.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT DISTINCT scope FROM reports').all() as { scope: string }[]).map(
      (r) => r.scope,
    );
  } finally {
    db.close();
  }
}

describe('an offline guess of a weak key against the cache scope', () => {
  it('finds no scope it can test a guessed key against: the scope is an HMAC under the data dir’s salt', async () => {
    const dataDir = join(root, 'one');
    const synced = await cli(['cache', 'sync', '--json'], dataDir);
    expect(synced.code).toBe(0);
    const scopes = scopesIn(dataDir);
    expect(scopes).toHaveLength(1);
    // The attacker's guess, hashed the old way, matches nothing.
    expect(scopes).not.toContain(unsaltedScope(service.baseUrl, WEAK_KEY));
    // It is the HMAC under this data dir's salt, which is private.
    const saltFile = join(dataDir, SCOPE_SALT_FILE);
    expect(statSync(saltFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(saltFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(scopes[0]).toBe(saltedScope(loadScopeSalt(dataDir), service.baseUrl, WEAK_KEY));

    // Another data dir has another salt: the same key gives another scope there.
    const otherDir = join(root, 'two');
    expect((await cli(['cache', 'sync', '--json'], otherDir)).code).toBe(0);
    expect(scopesIn(otherDir)).toHaveLength(1);
    expect(scopesIn(otherDir)[0]).not.toBe(scopes[0]);
  });

  it('two processes creating the salt at once end with one salt', async () => {
    const dataDir = join(root, 'race');
    // Every child loads tsx first, then waits for one shared moment, so the creations overlap.
    const startAt = Date.now() + 5_000;
    const script = `import { loadScopeSalt } from './electron/core/cache/scopeSalt.ts';
const startAt = Number(process.argv[2]);
while (Date.now() < startAt) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
process.stdout.write(loadScopeSalt(process.argv[1]).toString('hex'));`;
    const run = () =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, dataDir, String(startAt)],
        { cwd: ROOT },
      );
    const outputs = await Promise.all(Array.from({ length: 6 }, run));
    const salts = new Set(outputs.map(({ stdout }) => stdout));
    expect(salts.size).toBe(1);
    expect([...salts][0]).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(dataDir, SCOPE_SALT_FILE), 'utf8').trim()).toBe([...salts][0]);
    // No candidate left behind.
    expect(readdirSync(dataDir)).toEqual([SCOPE_SALT_FILE]);
  });

  it('drops rows an earlier version cached under the unsalted scope instead of mixing them in', async () => {
    const dataDir = join(root, 'legacy');
    const legacy = unsaltedScope(service.baseUrl, WEAK_KEY);
    const cache = ReportCache.open(join(dataDir, 'cache.sqlite'));
    try {
      // Rows the service does not have: if they showed up, old and new would be mixed.
      cache.putReports(legacy, generateReports(5, 900_001), new Date().toISOString());
      cache.putReports('profile-kept', generateReports(3), new Date().toISOString());
    } finally {
      cache.close();
    }
    const status = await cli(['cache', 'status', '--json'], dataDir);
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as CacheStatus).reportCount).toBe(0);
    expect(scopesIn(dataDir)).toEqual(['profile-kept']);
    // Synced again under the salted scope: only what the service holds.
    expect((await cli(['cache', 'sync', '--json'], dataDir)).code).toBe(0);
    const after = await cli(['cache', 'status', '--json'], dataDir);
    expect((JSON.parse(after.stdout) as CacheStatus).reportCount).toBe(REPORTS);
    expect(scopesIn(dataDir).sort()).toEqual(
      ['profile-kept', saltedScope(loadScopeSalt(dataDir), service.baseUrl, WEAK_KEY)].sort(),
    );
  });
});
