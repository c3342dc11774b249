/**
 * The `report-desk` CLI against the real demo service on 127.0.0.1: a few runs spawn the real
 * process (node + tsx, exactly what `npm run cli` does) to prove the wiring, exit codes and
 * streams; the rest call runCli in-process with captured streams. Retries wait 1 ms
 * (REPORT_DESK_RETRY_BASE_MS), so nothing here waits long.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemoService, type DemoService } from '../../electron/demo-service/server';
import { runCliCaptured, spawnCliCaptured, type CliRun } from '../helpers/cli';
import { freeLoopbackPort } from '../helpers/network';

const KEY = 'cli-test-key-Hy6Tq2Wn9Rb';
const REPORTS = '/api/v1/reports';

let service: DemoService;
let refusedUrl: string;
/** The CLI now keeps an offline cache: never in the real app-data folder. */
const dataDir = mkdtempSync(join(tmpdir(), 'report-desk-cli-'));
/** Every stdout/stderr any run produced: none may contain the key. */
const allOutput: string[] = [];

type Run = CliRun;

function baseEnv(): Record<string, string> {
  return {
    REPORT_DESK_BASE_URL: service.baseUrl,
    REPORT_DESK_API_KEY: KEY,
    REPORT_DESK_RETRY_BASE_MS: '1',
    REPORT_DESK_DATA_DIR: dataDir,
  };
}

function record(run: Run): Run {
  allOutput.push(run.stdout, run.stderr);
  return run;
}

/**
 * The real CLI in its own process, with a data dir of its own: these runs go in parallel, and
 * processes writing one cache file at the same moment is not what these tests are about.
 */
async function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  stdin = '',
): Promise<Run> {
  const ownDataDir = mkdtempSync(join(dataDir, 'spawned-'));
  return record(
    await spawnCliCaptured(args, { ...baseEnv(), REPORT_DESK_DATA_DIR: ownDataDir, ...env }, stdin),
  );
}

/** runCli in this process, with captured streams. */
async function cli(
  args: string[],
  options: { env?: Record<string, string | undefined>; stdin?: string; fetch?: typeof fetch } = {},
): Promise<Run> {
  return record(
    await runCliCaptured(args, {
      stdin: options.stdin,
      env: { ...baseEnv(), ...options.env },
      fetch: options.fetch ?? fetch,
    }),
  );
}

/** A fetch that records every form body before passing the request on. */
function recordingFetch(bodies: string[]): typeof fetch {
  return (input, init) => {
    if (typeof init?.body === 'string') bodies.push(init.body);
    return fetch(input, init);
  };
}

beforeAll(async () => {
  service = await startDemoService({
    accounts: [{ apiKey: KEY, account: { id: 3, name: 'CLI Test', email: 'cli@test.example' } }],
    reportsPerAccount: 45,
  });
  refusedUrl = `http://127.0.0.1:${await freeLoopbackPort()}`;
});

afterEach(() => service.faults.clear());

afterAll(async () => {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the real process', () => {
  // Independent runs go in parallel: each spawn costs a Node start-up.
  it('list --json prints only JSON; exit 2 (insecure URL), 3, 4 and 6', async () => {
    const before = service.requests.length;
    const [list, insecure, rejected, missing, refused] = await Promise.all([
      spawnCli(['reports', 'list', '--json', '--per-page', '25', '--sort', 'asc']),
      spawnCli(['account', '--base-url', 'http://reports.example.com']),
      spawnCli(['account'], { REPORT_DESK_API_KEY: 'not-the-right-key-000' }),
      spawnCli(['reports', 'get', '999999']),
      spawnCli(['account', '--base-url', refusedUrl]),
    ]);

    expect(list.code).toBe(0);
    expect(list.stderr).toBe('');
    const doc = JSON.parse(list.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ page: 1, per_page: 25, total: service.reportCount(), source: 'network' });
    const data = doc.data as { id: string; url: string; score: unknown }[];
    expect(data).toHaveLength(25);
    expect(data[0]).toHaveProperty('score');
    expect(Number(data[0].id)).toBeLessThan(Number(data[1].id));

    expect(insecure.code).toBe(2);
    expect(insecure.stdout).toBe('');
    expect(insecure.stderr).toMatch(/^Plain http:\/\/ is only allowed for this computer.*\n$/);

    expect(rejected.code).toBe(3);
    expect(rejected.stderr).toContain('rejected the API key');
    expect(rejected.stderr).not.toContain('not-the-right-key-000');

    expect(missing.code).toBe(4);
    expect(missing.stderr).toBe(
      'Report 999999 was not found (HTTP 404). It may have been deleted; refresh the list.\n',
    );

    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('could not be reached: the connection was refused');

    // The list, the rejected key and the missing report: the insecure URL sent nothing.
    expect(service.requests.length - before).toBe(3);
  });

  it('exit 5 (field lines included), 7 (still rate-limited after retries) and 8 (no stack trace)', async () => {
    service.faults.add({
      method: 'POST',
      path: REPORTS,
      status: 422,
      body: JSON.stringify({
        message: 'The url has already been taken.',
        errors: { url: ['The url has already been taken.'] },
      }),
    });
    service.faults.add({ method: 'GET', path: REPORTS, status: 429 });
    service.faults.add({ method: 'GET', path: '/api/v1/account', status: 500 });
    const listsBefore = service.requests.filter((r) => r.method === 'GET' && r.path === REPORTS).length;
    const [rejectedInput, rateLimited, serverError] = await Promise.all([
      spawnCli(['reports', 'create', '--url', 'https://dup.example.org']),
      spawnCli(['reports', 'list']),
      spawnCli(['account', '--json']),
    ]);

    expect(rejectedInput.code).toBe(5);
    expect(rejectedInput.stderr).toBe(
      'The Report Service did not accept the input: The url has already been taken. Correct it and try again.\n' +
        '  url: The url has already been taken.\n',
    );

    expect(rateLimited.code).toBe(7);
    expect(rateLimited.stderr).toContain('too many requests');
    const listsAfter = service.requests.filter((r) => r.method === 'GET' && r.path === REPORTS).length;
    expect(listsAfter - listsBefore).toBe(3);

    expect(serverError.code).toBe(8);
    expect(serverError.stdout).toBe('');
    expect(serverError.stderr.trim().split('\n')).toHaveLength(1);
    expect(serverError.stderr).toContain('internal problem (HTTP 500');
    expect(serverError.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('reports create, then delete --yes', async () => {
    const before = service.reportCount();
    const created = await spawnCli(['reports', 'create', '--url', 'https://spawned.example.org/x', '--json']);
    expect(created.code).toBe(0);
    const report = JSON.parse(created.stdout) as { id: string; url: string };
    expect(report.url).toBe('https://spawned.example.org/x');
    expect(service.reportCount()).toBe(before + 1);

    const deleted = await spawnCli(['--yes', 'reports', 'delete', report.id]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`Deleted report ${report.id}.\n`);
    expect(service.reportCount()).toBe(before);
  });

  it('--password-stdin reads the password from the pipe', async () => {
    const run = await spawnCli(
      [
        'reports',
        'create',
        '--url',
        'https://locked.example.org',
        '--privacy',
        'password',
        '--password-stdin',
        '--json',
      ],
      {},
      'pipe-Secret-9931\n',
    );
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { privacy: number }).privacy).toBe(2);
    expect(run.stdout + run.stderr).not.toContain('pipe-Secret-9931');
  });
});

describe('usage (exit 2, nothing sent)', () => {
  it.each([
    [[], /^Give a command\. Run "report-desk help" for usage\.\n$/],
    [['reports'], /"reports" needs a sub-command\. Run "report-desk help reports"/],
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['reports', 'list', '--bogus'], /Unknown option --bogus\. Run "report-desk help reports list"/],
    [['reports', 'get', '1', '--search', 'x'], /--search is not an option of reports get/],
    [['reports', 'list', '--result', 'awful'], /--result must be one of good, decent, bad \(got "awful"\)/],
    [['reports', 'list', '--per-page', '20'], /--per-page must be one of 10, 25, 50, 100/],
    [['reports', 'list', '--page'], /--page needs a value/],
    [['reports', 'list', '--page', '0'], /^Page must be a whole number from 1\.\n$/],
    [['reports', 'list', '--json', '--json'], /--json is given more than once/],
    [['account', '--api-key', 'abc'], /never taken as an argument.*REPORT_DESK_API_KEY/],
    [
      ['reports', 'create', '--password', 'x', '--url', 'https://a.example'],
      /Pipe it in and add --password-stdin/,
    ],
    [['reports', 'get'], /reports get needs ID/],
    [['reports', 'get', '1', '2'], /Unexpected argument "2"/],
    [['reports', 'get', 'a/b'], /may contain only letters, digits/],
    [['reports', 'create'], /reports create needs --url URL/],
    [['reports', 'create', '--url', 'not a url'], /Enter a full address starting with http/],
    [
      ['reports', 'create', '--url', 'https://a.example', '--privacy', 'password'],
      /needs a password: pipe it in and add --password-stdin/,
    ],
    [
      ['reports', 'create', '--url', 'https://a.example', '--password-stdin'],
      /--password-stdin is only used with --privacy password/,
    ],
    [['reports', 'update', '1'], /Nothing to change: give --privacy or --results/],
    [['reports', 'delete', '1'], /Deleting report 1 cannot be undone; add --yes to confirm/],
    [['account', '--timeout', 'soon'], /--timeout must be a number of seconds/],
    [['account', '--json=yes'], /--json takes no value/],
  ])('%j', async (args, message) => {
    const before = service.requests.length;
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(service.requests.length).toBe(before);
  });

  it('the key and the base URL must be set', async () => {
    const noKey = await cli(['account'], { env: { REPORT_DESK_API_KEY: undefined } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/Set the API key in the environment variable REPORT_DESK_API_KEY/);
    const noUrl = await cli(['account'], { env: { REPORT_DESK_BASE_URL: undefined } });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/--base-url URL or the environment variable REPORT_DESK_BASE_URL/);
  });

  it('a bad retry knob is a usage error', async () => {
    const run = await cli(['account'], { env: { REPORT_DESK_RETRY_BASE_MS: 'fast' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/REPORT_DESK_RETRY_BASE_MS must be a whole number/);
  });

  it('a bad sync lease knob is a usage error', async () => {
    const run = await cli(['cache', 'status'], { env: { REPORT_DESK_SYNC_LEASE_MS: '5' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^REPORT_DESK_SYNC_LEASE_MS must be a whole number of milliseconds, 100 or more\./,
    );
  });
});

describe('help', () => {
  it('--help and help print the usage on stdout', async () => {
    for (const args of [['--help'], ['help'], ['-h']]) {
      const run = await cli(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: report-desk <command> \[options\]/);
      expect(run.stdout).toContain('reports delete ID');
      expect(run.stdout).toContain('REPORT_DESK_RETRY_BASE_MS');
      expect(run.stderr).toBe('');
    }
  });

  it('a command’s help lists its options', async () => {
    for (const args of [
      ['help', 'reports', 'list'],
      ['reports', 'list', '--help'],
    ]) {
      const run = await cli(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: report-desk reports list [--search TEXT]');
      expect(run.stdout).toContain('--per-page 10|25|50|100');
    }
  });
});

describe('commands in-process', () => {
  it('account as a record and as JSON', async () => {
    const text = await cli(['account']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^id +3\nname +CLI Test\n/);
    const json = await cli(['account', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 3, name: 'CLI Test', email: 'cli@test.example' });
  });

  it('options may come before the command words', async () => {
    const run = await cli([
      '--json',
      '--base-url',
      `${service.baseUrl}/api/v1/`,
      '--per-page',
      '10',
      'reports',
      'list',
    ]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { data: unknown[] }).data).toHaveLength(10);
  });

  it('reports list as a table, with every filter sent', async () => {
    const run = await cli([
      'reports',
      'list',
      '--search',
      'example',
      '--search-by',
      'url',
      '--result',
      'good',
      '--sort-by',
      'generated_at',
      '--sort',
      'asc',
      '--per-page',
      '50',
      '--page',
      '1',
    ]);
    expect(run.code).toBe(0);
    const query = new URLSearchParams(service.requests.at(-1)?.query);
    expect(Object.fromEntries(query)).toEqual({
      search: 'example',
      result: 'good',
      sort_by: 'generated_at',
      sort: 'asc',
      per_page: '50',
    });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +RESULT +PRIVACY +GENERATED +PROJECT +URL$/);
    expect(lines.at(-1)).toMatch(/^Page 1 of \d+, \d+ reports? in all\.$/);
    for (const line of lines.slice(1, -1))
      expect(line).toMatch(/^\d+ +good +(Public|Private|Password) .*example/);
  });

  it('reports list --project filters on the project', async () => {
    const all = JSON.parse((await cli(['reports', 'list', '--json', '--per-page', '100'])).stdout) as {
      data: { project: string | null }[];
    };
    const project = all.data.map((r) => r.project).find((p): p is string => typeof p === 'string');
    const run = await cli(['reports', 'list', '--json', '--per-page', '100', '--project', String(project)]);
    const data = (JSON.parse(run.stdout) as { data: { project: string }[] }).data;
    expect(data.length).toBeGreaterThan(0);
    for (const r of data) expect(r.project).toBe(project);
  });

  it('reports list --all follows every page', async () => {
    const total = service.reportCount();
    const run = await cli(['reports', 'list', '--all', '--per-page', '10', '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as { data: { id: string }[]; total: number; per_page: number };
    expect(doc.total).toBe(total);
    expect(doc.data).toHaveLength(total);
    expect(new Set(doc.data.map((r) => r.id)).size).toBe(total);
    const pages = service.requests
      .slice(-Math.ceil(total / 10))
      .map((r) => new URLSearchParams(r.query).get('page'));
    expect(pages).toEqual(
      Array.from({ length: Math.ceil(total / 10) }, (_, i) => (i === 0 ? null : String(i + 1))),
    );

    const text = await cli(['reports', 'list', '--all']);
    expect(text.stdout).toContain(`${total} reports from 1 page.`);
  });

  it('reports list --all stops on a short page when the service gives no page count', async () => {
    const report = (id: number) => ({ id, url: `https://bare${id}.example.org` });
    service.faults.add({
      method: 'GET',
      path: REPORTS,
      status: 200,
      body: JSON.stringify([report(1), report(2)]),
      times: 1,
    });
    service.faults.add({
      method: 'GET',
      path: REPORTS,
      status: 200,
      body: JSON.stringify([report(3)]),
      times: 1,
    });
    const run = await cli(['reports', 'list', '--all', '--per-page', '10', '--json']);
    // The first page is short too, so one request is enough.
    expect((JSON.parse(run.stdout) as { data: unknown[] }).data).toHaveLength(2);
  });

  it('reports list --all refuses a service that ignores the page parameter', async () => {
    const page = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, url: `https://same${i}.example.org` }));
    service.faults.add({ method: 'GET', path: REPORTS, status: 200, body: JSON.stringify(page) });
    const run = await cli(['reports', 'list', '--all', '--per-page', '10']);
    expect(run.code).toBe(8);
    expect(run.stderr).toMatch(/same reports again for page 2/);
  });

  it('reports get as a record and as JSON, unknown fields included', async () => {
    const id = (JSON.parse((await cli(['reports', 'list', '--json'])).stdout) as { data: { id: string }[] })
      .data[0].id;
    const text = await cli(['reports', 'get', id]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^id +${id}\\nurl +https?://`));
    expect(text.stdout).toMatch(/\nsummary +\{"title"/);
    const json = JSON.parse((await cli(['reports', 'get', id, '--json'])).stdout) as Record<string, unknown>;
    expect(json.id).toBe(id);
    expect(json).toHaveProperty('score');
  });

  it('reports create with a password: one trailing newline trimmed, the password never printed', async () => {
    const bodies: string[] = [];
    const run = await cli(
      ['reports', 'create', '--url', 'https://pw.example.org', '--privacy', 'password', '--password-stdin'],
      { stdin: 'in-process-Secret 42\r\n', fetch: recordingFetch(bodies) },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Created report \d+\.\nid +\d+\nurl +https:\/\/pw\.example\.org\n/);
    expect(run.stdout).toMatch(/privacy +Password/);
    expect(bodies).toEqual(['url=https%3A%2F%2Fpw.example.org&privacy=2&password=in-process-Secret+42']);
    expect(run.stdout + run.stderr).not.toContain('in-process-Secret');
  });

  it('an empty password on stdin is refused before sending', async () => {
    const before = service.requests.length;
    const run = await cli(
      ['reports', 'create', '--url', 'https://pw.example.org', '--privacy', 'password', '--password-stdin'],
      {
        stdin: '\n',
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('A password-protected report needs a password.');
    expect(service.requests.length).toBe(before);
  });

  it('reports update changes privacy and the results flag', async () => {
    const created = JSON.parse(
      (await cli(['reports', 'create', '--url', 'https://upd.example.org', '--json'])).stdout,
    ) as {
      id: string;
    };
    const run = await cli([
      'reports',
      'update',
      created.id,
      '--privacy',
      'private',
      '--results',
      'yes',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: created.id, privacy: 1, results: true });
    const text = await cli(['reports', 'update', created.id, '--results', 'no']);
    expect(text.stdout).toMatch(new RegExp(`^Updated report ${created.id}\\.\\n`));
    expect(text.stdout).toMatch(/\nresults +false\n/);
  });

  it('reports delete --json answers {"deleted": ID}; a second delete is exit 4', async () => {
    const created = JSON.parse(
      (await cli(['reports', 'create', '--url', 'https://del.example.org', '--json'])).stdout,
    ) as {
      id: string;
    };
    const run = await cli(['reports', 'delete', created.id, '--yes', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ deleted: created.id });
    const again = await cli(['reports', 'delete', created.id, '--yes']);
    expect(again.code).toBe(4);
  });

  it('--timeout: a slow service is exit 6 with --no-cache, else the cached account', async () => {
    service.faults.add({ method: 'GET', path: '/api/v1/account', delayMs: 1_000, passThrough: true });
    const strict = await cli(['account', '--timeout', '0.1', '--no-cache']);
    expect(strict.code).toBe(6);
    expect(strict.stderr).toBe(
      'The Report Service did not answer within 0.1 seconds. Try again, or raise the time-out.\n',
    );
    // The account was read earlier in this file, so the cache answers.
    const cached = await cli(['account', '--timeout', '0.1']);
    expect(cached.code).toBe(0);
    expect(cached.stdout).toMatch(/^id +3\n/);
    expect(cached.stderr).toMatch(
      /^Offline: showing the account as cached .* ago \(the Report Service could not be reached\)\.\n$/,
    );
  });

  it('a bad reply is exit 8 with a quoted excerpt', async () => {
    service.faults.add({
      path: '/api/v1/account',
      status: 200,
      body: '<html><body>Login page</body></html>',
    });
    const run = await cli(['account']);
    expect(run.code).toBe(8);
    expect(run.stderr).toContain('"Login page"');
  });

  it('--verbose logs each request to stderr, never the key', async () => {
    const run = await cli(['account', '--verbose', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/DEBUG \[report-desk:api\] GET \/api\/v1\/account 200 \d+ms/);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 3 });
  });

  it('terminal control characters from the service never reach the screen', async () => {
    service.faults.add({
      path: '/api/v1/reports/77',
      status: 200,
      body: JSON.stringify({ data: { id: 77, url: 'https://evil.example.org/\u001b[2J\u0007x' } }),
    });
    const run = await cli(['reports', 'get', '77']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\nurl +https:\/\/evil\.example\.org\/ x\n/);
    // eslint-disable-next-line no-control-regex -- asserting their absence
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('no output of any run contained the key', () => {
    expect(allOutput.length).toBeGreaterThan(40);
    for (const text of allOutput) expect(text).not.toContain(KEY);
  });
});
