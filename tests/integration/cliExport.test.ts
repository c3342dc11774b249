/**
 * `report-desk reports list --format csv|json|table --output FILE`: real CLI processes against
 * the reference service on 127.0.0.1, files read back with an independent RFC 4180 reader and
 * compared with what the service lists over every page (its own per_page=100 pages, fetched
 * here directly). Some reports carry formula-looking projects planted in the service's data.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoService, type DemoAccount, type DemoService } from '../../electron/demo-service/server';
import { spawnCliCaptured, type CliRun } from '../helpers/cli';
import { csvRecords } from '../helpers/csv';
import { plantTrickyReports, TRICKY_PROJECTS } from '../helpers/trickyReports';

const ACCOUNT: DemoAccount = {
  apiKey: 'cli-export-key-Qm4Zt8',
  account: { id: 31, name: 'Export Test', email: 'export@example.test' },
};
const dir = mkdtempSync(join(tmpdir(), 'report-desk-cli-export-'));
const dataFile = join(dir, 'service.json');
let service: DemoService;
let planted: string[];
/** Every report the service holds, in its default order, read page by page over HTTP. */
let serviceReports: Record<string, unknown>[];

async function allFromService(): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let page = 1; page <= 50; page++) {
    const response = await fetch(`${service.baseUrl}/api/v1/reports?per_page=100&page=${page}`, {
      headers: { Authorization: `Bearer ${ACCOUNT.apiKey}`, Accept: 'application/json' },
    });
    const body = (await response.json()) as { data: Record<string, unknown>[]; meta: { last_page: number } };
    out.push(...body.data);
    if (page >= body.meta.last_page) return out;
  }
  throw new Error('The service did not stop paging.');
}

function env(dataDir: string): Record<string, string> {
  return {
    REPORT_DESK_BASE_URL: service.baseUrl,
    REPORT_DESK_API_KEY: ACCOUNT.apiKey,
    REPORT_DESK_RETRY_BASE_MS: '1',
    REPORT_DESK_DATA_DIR: dataDir,
  };
}

function run(args: string[], dataDir = mkdtempSync(join(dir, 'cli-'))): Promise<CliRun> {
  return spawnCliCaptured(args, env(dataDir));
}

beforeAll(async () => {
  // First start writes the seeded data; the tricky projects go in while it is stopped.
  const seeding = await startDemoService({ accounts: [ACCOUNT], reportsPerAccount: 230, seed: 5, dataFile });
  await seeding.stop();
  planted = plantTrickyReports(dataFile, ACCOUNT.account.id as number);
  service = await startDemoService({ accounts: [ACCOUNT], dataFile });
  serviceReports = await allFromService();
});

afterAll(async () => {
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('reports list --format and --output', () => {
  it('--all --output FILE.csv writes every page as RFC 4180 CSV, mode 0600, formulas neutralised', async () => {
    const file = join(dir, 'all.csv');
    const result = await run(['reports', 'list', '--all', '--output', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Wrote ${serviceReports.length} reports to ${file}.`);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const { header, records } = csvRecords(readFileSync(file, 'utf8'));
    expect(header.slice(0, 6)).toEqual(['id', 'url', 'result', 'generated_at', 'privacy', 'project']);
    // Every other field the service sent is there too.
    for (const field of Object.keys(serviceReports[0])) expect(header).toContain(field);
    expect(records.map((r) => r.id)).toEqual(serviceReports.map((r) => String(r.id)));
    records.forEach((record, i) => {
      const sent = serviceReports[i];
      expect(record.url).toBe(sent.url);
      expect(record.result).toBe(sent.result);
      expect(record.generated_at).toBe(new Date(sent.generated_at as string).toISOString());
      expect(record.privacy).toBe(String(sent.privacy));
    });
    for (const [i, id] of planted.entries()) {
      const record = records.find((r) => r.id === id)!;
      const project = TRICKY_PROJECTS[i];
      expect(record.project).toBe(/^[=+\-@\t\r]/.test(project) ? `'${project}` : project);
    }
  });

  it('--format json to stdout: the service’s reports, every page, with their source', async () => {
    const result = await run(['reports', 'list', '--all', '--format', 'json', '--result', 'good']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { source: string; count: number; data: { id: string }[] };
    const good = serviceReports.filter((r) => r.result === 'good');
    expect(parsed.source).toBe('network');
    expect(parsed.count).toBe(good.length);
    expect(parsed.data.map((r) => r.id)).toEqual(good.map((r) => String(r.id)));
  });

  it('--format csv without --all is the one page asked for', async () => {
    const result = await run(['reports', 'list', '--format', 'csv', '--per-page', '25', '--page', '2']);
    expect(result.code).toBe(0);
    expect(csvRecords(result.stdout).records.map((r) => r.id)).toEqual(
      serviceReports.slice(25, 50).map((r) => String(r.id)),
    );
  });

  it('--format table is the default table; an existing --output file is replaced whole', async () => {
    const table = await run(['reports', 'list', '--format', 'table']);
    const plain = await run(['reports', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toBe(plain.stdout);

    const file = join(dir, 'replaced.json');
    writeFileSync(file, 'x'.repeat(100_000), { mode: 0o644 });
    const result = await run(['reports', 'list', '--output', file]);
    expect(result.code).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { count: number }).count).toBe(10);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('offline, exports the synced cache and says so', async () => {
    const dataDir = mkdtempSync(join(dir, 'offline-'));
    expect((await run(['cache', 'sync'], dataDir)).code).toBe(0);
    await service.stop();
    try {
      const file = join(dir, 'offline.csv');
      const result = await run(['reports', 'list', '--all', '--output', file], dataDir);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/offline|cache/i);
      const ids = csvRecords(readFileSync(file, 'utf8')).records.map((r) => r.id);
      expect(ids).toEqual(serviceReports.map((r) => String(r.id)));
    } finally {
      service = await startDemoService({
        accounts: [ACCOUNT],
        dataFile,
        port: Number(new URL(service.baseUrl).port),
      });
    }
  });

  it('refuses unclear or conflicting formats with exit 2 and writes nothing', async () => {
    const file = join(dir, 'what.txt');
    const unclear = await run(['reports', 'list', '--output', file]);
    expect(unclear.code).toBe(2);
    expect(unclear.stderr).toContain('Add --format csv or --format json.');
    expect(() => statSync(file)).toThrow();
    const both = await run(['reports', 'list', '--json', '--format', 'csv']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--json and --format csv ask for two formats');
    const bad = await run(['reports', 'list', '--format', 'xml']);
    expect(bad.code).toBe(2);
  });

  it('an unwritable --output is one sentence and exit 2', async () => {
    const result = await run([
      'reports',
      'list',
      '--format',
      'csv',
      '--output',
      join(dir, 'missing', 'x.csv'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/could not be written to .*ENOENT.*Choose a folder/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
