/**
 * The CLI's side of "Keep available offline": `cache sync --quick`, the new summary fields in
 * words and JSON, and `cache changes [--since] [--json]` — in this process with an injected
 * clock (exact times), against the reference service on 127.0.0.1 changed on its side, with the
 * real keychain under scripts/with-keyring.sh (an in-memory store elsewhere).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportChange, SyncSummary } from '../../shared/contract';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { runCliCaptured } from '../helpers/cli';
import { testKeyStore } from '../helpers/keychain';

let service: DemoService;
const dataDir = mkdtempSync(join(tmpdir(), 'report-desk-cli-changes-'));
const keychain = testKeyStore();
let clock = new Date('2026-11-23T09:00:00.000Z');

const cli = (args: string[], stdin?: string) =>
  runCliCaptured(args, {
    stdin,
    // A date given to --since is its local midnight: UTC here, whatever the machine's zone.
    env: {
      REPORT_DESK_DATA_DIR: dataDir,
      REPORT_DESK_RETRY_BASE_MS: '1',
      REPORT_DESK_API_KEY: undefined,
      TZ: 'UTC',
    },
    fetch,
    keyStore: keychain.store,
    now: () => clock,
  });

beforeAll(async () => {
  service = await startDemoService({ reportsPerAccount: 120 });
  const added = await cli(['profiles', 'add', 'Site', '--base-url', service.baseUrl], service.apiKey);
  expect(added.code, added.stderr).toBe(0);
}, 30_000);

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('cache sync and cache sync --quick', () => {
  it('the first sync: its summary in words and, with --json, today’s fields and the new ones', async () => {
    const run = await cli(['cache', 'sync', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout) as SyncSummary).toEqual({
      fetched: 120,
      removed: 0,
      pages: 2,
      completedAt: clock.toISOString(),
      pruned: true,
      reason: null,
      mode: 'full',
      added: 120,
      changed: 0,
      complete: true,
      passes: 1,
      requests: 2,
      badNews: 0,
    });
    clock = new Date(clock.getTime() + 60_000);
    const words = await cli(['cache', 'sync']);
    expect(words.stdout).toBe(
      '120 reports of the profile "Site" are now available offline (2 pages, 2 requests). The offline copy is complete.\n',
    );
  });

  it('--quick with nothing new: one request, said in words; --json says complete: false', async () => {
    const run = await cli(['cache', 'sync', '--quick']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      'Checked the newest reports of the profile "Site" (1 request): nothing new. A quick refresh reads only the newest reports; "cache sync" without --quick reads them all.\n',
    );
    const json = JSON.parse((await cli(['cache', 'sync', '--quick', '--json'])).stdout) as SyncSummary;
    expect(json).toMatchObject({
      mode: 'quick',
      complete: false,
      passes: 1,
      requests: 1,
      added: 0,
      removed: 0,
    });
  });

  it('--quick after reports were added finds them', async () => {
    service.addReports(4);
    clock = new Date(clock.getTime() + 60_000);
    const run = await cli(['cache', 'sync', '--quick']);
    expect(run.stdout).toMatch(/^Checked the newest reports of the profile "Site" \(1 request\): 4 new\. /);
  });
});

describe('cache changes', () => {
  let turnedBad: number;
  let gone: number;

  it('lists what the syncs found, newest first, in words and as {"changes": [...]}', async () => {
    const ids = service.reportIds();
    turnedBad = ids[3];
    gone = ids[7];
    service.changeReport(turnedBad, { result: 'good', privacy: 0 });
    await cli(['cache', 'sync']);
    clock = new Date('2026-11-23T12:00:00.000Z');
    service.changeReport(turnedBad, { result: 'bad', privacy: 1 });
    service.deleteReport(gone);
    const sync = await cli(['cache', 'sync']);
    expect(sync.stdout).toMatch(
      /\(2 pages, 2 requests\)\. 1 changed\. Removed 1 cached report the service no longer has\. The offline copy is complete\.\n$/,
    );

    const json = await cli(['cache', 'changes', '--json', '--since', '2026-11-23T11:00:00Z']);
    expect(json.code, json.stderr).toBe(0);
    const { changes } = JSON.parse(json.stdout) as { changes: ReportChange[] };
    expect(changes).toEqual([
      {
        id: String(gone),
        kind: 'removed',
        at: '2026-11-23T12:00:00.000Z',
        fields: expect.objectContaining({ url: { before: expect.any(String), after: null } }),
      },
      {
        id: String(turnedBad),
        kind: 'changed',
        at: '2026-11-23T12:00:00.000Z',
        fields: { result: { before: 'good', after: 'bad' }, privacy: { before: 0, after: 1 } },
      },
    ]);
    const all = JSON.parse((await cli(['cache', 'changes', '--json'])).stdout) as { changes: ReportChange[] };
    expect(all.changes.map((c) => c.kind)).toEqual([
      'removed',
      'changed',
      'changed',
      'added',
      'added',
      'added',
      'added',
    ]);

    const text = await cli(['cache', 'changes', '--since', '2h']);
    expect(text.stdout).toBe(
      'Changes found in the offline copy of the profile "Site" since 2026-11-23 10:00 UTC, newest first (times in UTC):\n' +
        'FOUND             KIND     ID  WHAT\n' +
        `2026-11-23 12:00  removed  ${String(gone).padEnd(2)}  ${changes[0].fields.result.before as string}  ${changes[0].fields.url.before as string}\n` +
        `2026-11-23 12:00  changed  ${String(turnedBad).padEnd(2)}  result good → bad, privacy Public → Private\n`,
    );
  });

  it('nothing since a time says so; a --since that is not a time is exit 2 with the forms it takes', async () => {
    const none = await cli(['cache', 'changes', '--since', '2026-11-24']);
    expect(none.stdout).toBe(
      'No changes recorded for the profile "Site" since 2026-11-24 00:00 UTC. Changes are recorded from the first full sync (report-desk cache sync) on.\n',
    );
    const bad = await cli(['cache', 'changes', '--since', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^--since "yesterday" is not a time: give a date \(2026-11-23, its local midnight\), a date and time \(2026-11-23T09:00, local, or with an offset such as 2026-11-23T09:00:00\+01:00 or Z\) or an age \(30m, 12h, 7d\)\. Run "report-desk help cache changes" for usage\.\n$/,
    );
  });
});
