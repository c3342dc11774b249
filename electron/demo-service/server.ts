/**
 * The reference Report Service: a self-contained implementation of the spec
 * (shared/report-service-api.md) on node:http. It is the app's embedded demo and the server
 * every test runs against. Where the spec is silent it answers like a Laravel JSON API:
 * paginator envelope, `{message, errors}` on 422, `{message}` on 401/404/405.
 *
 * Request order: record → fault rules → body size (413) → route (404/405) → auth (401) →
 * validation (422) → handler. Faults come first so tests can break any request, even an
 * unauthenticated one.
 */
import { STATUS_CODES, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isLoopbackHost } from '../../shared/baseUrl';
import { AppFailure, appError } from '../../shared/errors';
import { paginate } from './paginator';
import { ReportStore, type AccountData, type DemoAccount, type ServiceSideChange } from './store';
import type { StoredReport } from './seed';
import {
  bagFromSearchParams,
  checkCreate,
  checkListQuery,
  checkUpdate,
  validationMessage,
  type FieldErrors,
  type InputBag,
  type ListParams,
} from './validation';

export type { DemoAccount, ServiceSideChange } from './store';

export interface FaultRule {
  /** 'GET' | 'POST' | …; any method when omitted. */
  method?: string;
  /** Matched against the URL pathname; a string must match exactly. */
  path: string | RegExp;
  /** Respond with this status… */
  status?: number;
  /** …and this raw body (default: JSON {"message": "…"}). */
  body?: string;
  /** Default 'application/json'. */
  contentType?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering, hanging up or running the real handler. */
  delayMs?: number;
  /** Destroy the socket without any response. */
  hangUp?: boolean;
  /** After delayMs, run the real handler instead of answering status/body. */
  passThrough?: boolean;
  /** How many matching requests the rule applies to (default: unlimited). */
  times?: number;
}

/**
 * Ways a careless service behaves that the client must survive (switched on per run, or later
 * through `DemoService.modes`):
 *  - echoSecrets: the account record carries `token` equal to the caller's key; created and
 *    updated reports carry `password_confirmation` and `protection: { pass }` with the password.
 *  - accountWithoutId: the account record has no id, uuid nor email, and a counter in it
 *    changes on every read.
 */
export interface SecretAndAccountModes {
  echoSecrets: boolean;
  accountWithoutId: boolean;
}

export interface FaultController {
  add(rule: FaultRule): void;
  /** Removes every rule and turns every mode below off. */
  clear(): void;
  /** A slow service: every request waits `ms` before anything else happens (0 turns it off). */
  setLatency(ms: number): void;
  /** A service without paging (the spec defines no `page`): every list request gets page 1. */
  ignorePage(on?: boolean): void;
  /**
   * A report deleted while a client pages through the list: once page `afterPage` of a list has
   * been served, report `id` (default: the first report of that list's page 1) is deleted —
   * once, or the next `times` times that page is served (each time the first of page 1).
   */
  deleteDuringListing(options: { afterPage: number; id?: number; times?: number }): void;
  /**
   * Any change while a client pages through the list: `run` is called once page `afterPage` of
   * a list has been served (its answer already built), the next `times` times (default 1).
   */
  afterListPage(options: { afterPage: number; times?: number; run: () => void }): void;
}

export interface RecordedRequest {
  method: string;
  /** The URL pathname as received, e.g. '/api/v1/reports'. */
  path: string;
  /** The raw query string without the leading '?', or ''. */
  query: string;
  /** Date.now() when the request arrived. */
  at: number;
  /** Whether it carried the Bearer key of a configured account. */
  authorized: boolean;
}

export interface DemoServiceOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default: one demo account with the key DEMO_API_KEY. */
  accounts?: DemoAccount[];
  /** Seeded reports per account: default 300 for the first account, 40 for the others. */
  reportsPerAccount?: number;
  /** PRNG seed, default 42: the same seed (on the same UTC day) gives the same data. */
  seed?: number;
  /** Load state from this JSON file when present; save to it (atomically) after every change. */
  dataFile?: string;
  /** Clock for created and updated reports and the seed data's anchor day. */
  now?: () => Date;
  /** Careless-service modes (default: all off). */
  modes?: Partial<SecretAndAccountModes>;
  /**
   * Answer every request this many ms after it arrives (default 0): the round trip of a real
   * network, for benchmarks of what latency does to a sync. Fault delays add to it.
   */
  latencyMs?: number;
}

export interface DemoService {
  /** e.g. 'http://127.0.0.1:54321' (no trailing slash, no /api/v1). */
  baseUrl: string;
  /** The first account's key. */
  apiKey: string;
  accounts: DemoAccount[];
  faults: FaultController;
  /** Careless-service modes; change them at any time. */
  modes: SecretAndAccountModes;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  reportCount(apiKey?: string): number;
  /** Replaces an account's reports with n generated ones (benchmarks need 10,000). */
  seedReports(n: number, apiKey?: string): void;
  /** Adds n generated reports after the newest, as if created meanwhile; answers their ids. */
  addReports(n: number, apiKey?: string): number[];
  /**
   * Changes a report on the service's side (its result re-analysed, its privacy changed
   * elsewhere), not through the API; throws for an unknown id.
   */
  changeReport(id: number, fields: ServiceSideChange, apiKey?: string): void;
  /** Deletes a report on the service's side; answers whether it existed. */
  deleteReport(id: number, apiKey?: string): boolean;
  /** Every report id of an account, ascending. */
  reportIds(apiKey?: string): number[];
  /** Closes the server and every open socket, hung and keep-alive ones included. */
  stop(): Promise<void>;
}

/** An obviously-demo key: it unlocks nothing but this local service. */
export const DEMO_API_KEY = 'demo-key-reportdesk-0001';

const DEFAULT_ACCOUNT: DemoAccount = {
  apiKey: DEMO_API_KEY,
  account: {
    id: 1,
    name: 'Demo User',
    email: 'demo@reportdesk.example',
    plan: 'demo',
    created_at: '2024-01-02T09:00:00.000Z',
  },
};

const API_PREFIX = '/api/v1';
const MAX_BODY_BYTES = 1024 * 1024;
const REPORT_PATH = /^\/api\/v1\/reports\/([^/]+)$/;
// Laravel's wording where it differs from Node's reason phrases.
const LARAVEL_STATUS_MESSAGES: Record<number, string> = { 429: 'Too Many Attempts.', 500: 'Server Error' };

type JsonBody = Record<string, unknown>;

interface Reply {
  status: number;
  /** Null for an empty body (204). */
  body: JsonBody | null;
  headers?: Record<string, string>;
}

const message = (status: number, text: string): Reply => ({ status, body: { message: text } });
const invalid = (errors: FieldErrors): Reply => ({
  status: 422,
  body: { message: validationMessage(errors), errors },
});
const REPORT_NOT_FOUND = message(404, 'Report not found.');

/** The public JSON of a report, in a fixed field order. The password hash never leaves. */
function reportJson(report: StoredReport): JsonBody {
  return {
    id: report.id,
    url: report.url,
    result: report.result,
    generated_at: report.generated_at,
    privacy: report.privacy,
    project: report.project,
    results: report.results,
    score: report.score,
    summary: report.summary,
    created_at: report.created_at,
    updated_at: report.updated_at,
  };
}

class FaultList implements FaultController {
  private readonly rules: { rule: FaultRule; remaining: number }[] = [];
  latencyMs = 0;
  pageIgnored = false;
  /** Changes to make once a list page was served (deleteDuringListing, afterListPage). */
  listingHooks: {
    name: string;
    afterPage: number;
    remaining: number;
    run: (account: AccountData, params: ListParams) => void;
  }[] = [];

  add(rule: FaultRule): void {
    this.rules.push({ rule, remaining: rule.times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.rules.length = 0;
    this.latencyMs = 0;
    this.pageIgnored = false;
    this.listingHooks.length = 0;
  }

  setLatency(ms: number): void {
    if (!(Number.isFinite(ms) && ms >= 0))
      throw new Error('setLatency needs a number of milliseconds, 0 or more.');
    this.latencyMs = ms;
  }

  ignorePage(on = true): void {
    this.pageIgnored = on;
  }

  /** Set by startDemoService: deletes `id`, else the first report of the list's page 1. */
  deleteFromListing: (account: AccountData, params: ListParams, id?: number) => void = () => {};

  deleteDuringListing(options: { afterPage: number; id?: number; times?: number }): void {
    const { id } = options;
    // A new deletion replaces one still pending, as it always has.
    this.listingHooks = this.listingHooks.filter((hook) => hook.name !== 'deleteDuringListing');
    this.hook('deleteDuringListing', options, (account, params) =>
      this.deleteFromListing(account, params, id),
    );
  }

  afterListPage(options: { afterPage: number; times?: number; run: () => void }): void {
    this.hook('afterListPage', options, () => options.run());
  }

  private hook(
    name: string,
    options: { afterPage: number; times?: number },
    run: (account: AccountData, params: ListParams) => void,
  ): void {
    if (!(Number.isInteger(options.afterPage) && options.afterPage >= 1))
      throw new Error(`${name} needs afterPage, a page number of 1 or more.`);
    const times = options.times ?? 1;
    if (!(Number.isInteger(times) && times >= 1))
      throw new Error(`${name} needs times, a whole number of 1 or more.`);
    this.listingHooks.push({ name, afterPage: options.afterPage, remaining: times, run });
  }

  /** Runs (and uses up) the hooks of a list page just served. */
  listPageServed(account: AccountData, params: ListParams): void {
    for (const hook of [...this.listingHooks]) {
      if (hook.afterPage !== params.page) continue;
      hook.remaining -= 1;
      if (hook.remaining <= 0) this.listingHooks.splice(this.listingHooks.indexOf(hook), 1);
      hook.run(account, params);
    }
  }

  /** The first rule (in the order added) that matches and has uses left; uses one. */
  take(method: string, path: string): FaultRule | undefined {
    const index = this.rules.findIndex(({ rule, remaining }) => {
      if (remaining <= 0) return false;
      if (rule.method && rule.method.toUpperCase() !== method) return false;
      if (typeof rule.path === 'string') return rule.path === path;
      rule.path.lastIndex = 0; // a /g or /y pattern would otherwise remember its last match
      return rule.path.test(path);
    });
    if (index < 0) return undefined;
    const entry = this.rules[index];
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.rules.splice(index, 1);
    return entry.rule;
  }
}

function checkAccounts(accounts: DemoAccount[]): void {
  if (accounts.length === 0) throw new Error('The demo service needs at least one account.');
  const keys = new Set<string>();
  const ids = new Set<string>();
  for (const { apiKey, account } of accounts) {
    if (!apiKey) throw new Error('Every demo account needs a non-empty API key.');
    if (account.id === undefined || account.id === null) throw new Error('Every demo account needs an id.');
    if (keys.has(apiKey)) throw new Error('Two demo accounts share one API key; each key must be unique.');
    if (ids.has(String(account.id))) throw new Error(`Two demo accounts share the id ${String(account.id)}.`);
    keys.add(apiKey);
    ids.add(String(account.id));
  }
}

/**
 * True for a Host header naming this computer, any port: its host by shared/baseUrl's rule
 * (localhost, 127.x.y.z or [::1]), the one the profiles' plain-http check uses.
 */
export function isLoopbackHostHeader(header: string | undefined): boolean {
  if (!header) return false;
  try {
    return isLoopbackHost(new URL(`http://${header}`).hostname);
  } catch {
    return false;
  }
}

export async function startDemoService(options: DemoServiceOptions = {}): Promise<DemoService> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHostHeader(host.includes(':') ? `[${host}]` : host)) {
    throw new Error(`The demo service only listens on this computer; "${host}" is not a loopback address.`);
  }
  const accounts = options.accounts ?? [DEFAULT_ACCOUNT];
  checkAccounts(accounts);
  const store = new ReportStore(accounts, {
    seed: options.seed ?? 42,
    reportsPerAccount: options.reportsPerAccount,
    dataFile: options.dataFile,
    now: options.now ?? (() => new Date()),
  });
  const faults = new FaultList();
  // The starting latency; faults.setLatency changes it and faults.clear() ends it.
  if (options.latencyMs !== undefined && options.latencyMs > 0) faults.setLatency(options.latencyMs);
  const modes: SecretAndAccountModes = { echoSecrets: false, accountWithoutId: false, ...options.modes };
  let accountReads = 0;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  /** Fault delays in progress: stop() ends them so no handler runs after it. */
  const pendingDelays = new Set<() => void>();
  let stopped = false;
  let baseUrl = '';

  const waitFor = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const finish = (completed: boolean) => {
        clearTimeout(timer);
        pendingDelays.delete(cancel);
        resolve(completed);
      };
      const cancel = () => finish(false);
      const timer = setTimeout(() => finish(true), ms);
      pendingDelays.add(cancel);
    });

  const dataFor = (apiKey: string | undefined): AccountData => {
    const data = apiKey === undefined ? store.first : store.accountForKey(apiKey);
    if (!data) throw new Error('No demo account has that API key.');
    return data;
  };

  function bearerKey(req: IncomingMessage): string | undefined {
    return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  }

  function accountFromHeader(req: IncomingMessage): AccountData | undefined {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    return match ? store.accountForKey(match[1]) : undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    if (!isLoopbackHostHeader(req.headers.host)) {
      // A DNS-rebinding page reaches 127.0.0.1 under its own host name; the published demo key
      // must not let it read or change the demo data.
      return send(
        res,
        message(421, 'The demo service only answers requests addressed to localhost or 127.0.0.1.'),
      );
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://demo.invalid');
    } catch {
      return send(res, message(400, 'The request address is not valid.'));
    }
    const account = accountFromHeader(req);
    requests.push({
      method,
      path: url.pathname,
      query: url.search.slice(1),
      at: Date.now(),
      authorized: account !== undefined,
    });

    if (faults.latencyMs > 0 && !(await waitFor(faults.latencyMs))) return;
    const fault = faults.take(method, url.pathname);
    if (fault) {
      if (fault.delayMs !== undefined && fault.delayMs > 0 && !(await waitFor(fault.delayMs))) return;
      if (fault.hangUp) {
        req.socket.destroy();
        return;
      }
      if (fault.status !== undefined && !fault.passThrough) return sendFault(res, fault, fault.status);
    }

    const body = await readBody(req);
    if (stopped || body === 'aborted') return;
    if (body === 'too-large') {
      return send(res, message(413, 'The request body is larger than 1 MB. Send a smaller request.'));
    }
    const input = () => parseBody(body, req.headers['content-type'] ?? '');
    send(res, carelessAnswer(route(method, url, input, account, req.headers.host), method, url, input, req));
  }

  function route(
    method: string,
    url: URL,
    readInput: () => InputBag | 'invalid-json',
    account: AccountData | undefined,
    hostHeader: string | undefined,
  ): Reply {
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const reportMatch = REPORT_PATH.exec(path);
    const allowed =
      path === `${API_PREFIX}/reports`
        ? ['GET', 'HEAD', 'POST']
        : reportMatch
          ? ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']
          : path === `${API_PREFIX}/account`
            ? ['GET', 'HEAD']
            : null;
    const laravelPath = path.replace(/^\/+/, '');
    if (allowed === null) return message(404, `The route ${laravelPath} could not be found.`);
    if (!allowed.includes(method)) {
      return {
        ...message(
          405,
          `The ${method} method is not supported for route ${laravelPath}. Supported methods: ${allowed.join(', ')}.`,
        ),
        headers: { Allow: allowed.join(', ') },
      };
    }
    if (!account) return message(401, 'Unauthenticated.');

    if (path === `${API_PREFIX}/account`) {
      const record = account.account.account;
      return { status: 200, body: { data: { ...record, reports_count: account.reports.size } } };
    }

    const origin = hostHeader ? `http://${hostHeader}` : baseUrl;
    if (!reportMatch) {
      if (method === 'POST') {
        const input = readInput();
        if (input === 'invalid-json') return message(400, 'The request body is not valid JSON.');
        const checked = checkCreate(input);
        if (!checked.ok) return invalid(checked.errors);
        return { status: 201, body: { data: reportJson(store.create(account, checked.value)) } };
      }
      const checked = checkListQuery(bagFromSearchParams(url.searchParams));
      if (!checked.ok) return invalid(checked.errors);
      const params = faults.pageIgnored ? { ...checked.value, page: 1 } : checked.value;
      const { items, total } = store.list(account, params);
      const envelope = paginate({
        items: items.map(reportJson),
        total,
        page: params.page,
        perPage: params.perPage,
        path: `${origin}${API_PREFIX}/reports`,
        query: [...url.searchParams],
      });
      faults.listPageServed(account, params);
      return { status: 200, body: envelope as unknown as JsonBody };
    }

    // Ids are positive integers; anything else cannot name a report, just like a missing one.
    const id = /^\d{1,15}$/.test(reportMatch[1]) ? Number(reportMatch[1]) : null;
    const report = id === null ? undefined : store.get(account, id);
    if (id === null || !report) return REPORT_NOT_FOUND;
    if (method === 'GET' || method === 'HEAD') return { status: 200, body: { data: reportJson(report) } };
    if (method === 'DELETE') {
      store.delete(account, id);
      return { status: 204, body: null };
    }
    const input = readInput();
    if (input === 'invalid-json') return message(400, 'The request body is not valid JSON.');
    const checked = checkUpdate(input);
    if (!checked.ok) return invalid(checked.errors);
    const updated = store.update(account, id, checked.value);
    return updated ? { status: 200, body: { data: reportJson(updated) } } : REPORT_NOT_FOUND;
  }

  /** The careless-service modes, applied to what the faithful service answered. */
  function carelessAnswer(
    reply: Reply,
    method: string,
    url: URL,
    readInput: () => InputBag | 'invalid-json',
    req: IncomingMessage,
  ): Reply {
    const data = reply.body?.data;
    if (reply.status >= 300 || typeof data !== 'object' || data === null || Array.isArray(data)) return reply;
    let record = data as JsonBody;
    if (url.pathname.startsWith(`${API_PREFIX}/account`)) {
      if (modes.accountWithoutId) {
        const { id: _id, uuid: _uuid, email: _email, ...rest } = record;
        record = { ...rest, reads: ++accountReads, checked_at: new Date().toISOString() };
      }
      if (modes.echoSecrets) record = { ...record, token: bearerKey(req) };
    } else if (modes.echoSecrets && (method === 'POST' || method === 'PUT' || method === 'PATCH')) {
      const input = readInput();
      const password = input === 'invalid-json' ? undefined : input.password;
      if (typeof password === 'string' && password !== '') {
        record = { ...record, password_confirmation: password, protection: { pass: password } };
      }
    }
    return { ...reply, body: { ...reply.body, data: record } };
  }

  /** The deleteDuringListing fault: after its page was served (the answer is already built). */
  faults.deleteFromListing = (account, params, given) => {
    const id = given ?? store.list(account, { ...params, page: 1 }).items[0]?.id;
    if (id !== undefined) store.delete(account, id);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(
        `[demo-service] internal error: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!res.headersSent) send(res, message(500, 'Server Error'));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await listen(server, host, options.port ?? 0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    baseUrl,
    apiKey: accounts[0].apiKey,
    accounts,
    faults,
    modes,
    requests,
    reportCount: (apiKey) => dataFor(apiKey).reports.size,
    seedReports: (n, apiKey) => {
      if (!Number.isInteger(n) || n < 0)
        throw new Error('seedReports needs a whole number of reports, 0 or more.');
      store.replaceWithGenerated(dataFor(apiKey), n);
    },
    addReports: (n, apiKey) => {
      if (!Number.isInteger(n) || n < 0)
        throw new Error('addReports needs a whole number of reports, 0 or more.');
      const data = dataFor(apiKey);
      const before = new Set(data.reports.keys());
      store.addGenerated(data, n);
      return [...data.reports.keys()].filter((id) => !before.has(id)).sort((a, b) => a - b);
    },
    changeReport: (id, fields, apiKey) => {
      if (!store.edit(dataFor(apiKey), id, fields)) throw new Error(`The demo service has no report ${id}.`);
    },
    deleteReport: (id, apiKey) => store.delete(dataFor(apiKey), id),
    reportIds: (apiKey) => [...dataFor(apiKey).reports.keys()].sort((a, b) => a - b),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      for (const cancel of [...pendingDelays]) cancel();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string> = { 'Cache-Control': 'no-cache, private', ...reply.headers };
  if (reply.body === null) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  res
    .writeHead(reply.status, { 'Content-Type': 'application/json', ...headers })
    .end(JSON.stringify(reply.body));
}

function sendFault(res: ServerResponse, fault: FaultRule, status: number): void {
  if (res.destroyed || res.headersSent) return;
  const body =
    fault.body ??
    JSON.stringify({ message: LARAVEL_STATUS_MESSAGES[status] ?? STATUS_CODES[status] ?? 'Error' });
  res.writeHead(status, { 'Content-Type': fault.contentType ?? 'application/json', ...fault.headers });
  res.end(status === 204 || status === 304 ? undefined : body);
}

/** Form fields by default; a JSON object when the client says it sends JSON. */
function parseBody(raw: string, contentType: string): InputBag | 'invalid-json' {
  if (/[/+]json\b/i.test(contentType)) {
    if (raw.trim() === '') return {};
    try {
      const parsed: unknown = JSON.parse(raw);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as InputBag)
        : {};
    } catch {
      return 'invalid-json';
    }
  }
  return bagFromSearchParams(new URLSearchParams(raw));
}

/** The whole body as text; 'too-large' past 1 MB (the rest is read and dropped). */
function readBody(req: IncomingMessage): Promise<string | 'too-large' | 'aborted'> {
  // The client may have gone away during a fault's delay.
  if (req.destroyed) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(size > MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks).toString('utf8')),
    );
    // A client that goes away mid-body gets no answer; resolving keeps the handler from hanging.
    req.on('error', () => resolve('aborted'));
    req.on('close', () => resolve('aborted'));
  });
}

function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const address = `${host}:${port}`;
      const failure =
        error.code === 'EADDRINUSE'
          ? appError('demo.port_in_use', { address })
          : error.code === 'EACCES'
            ? appError('demo.port_refused', { address })
            : appError('demo.start_failed', { address, code: error.code ?? 'unknown error' });
      reject(new AppFailure(failure));
    });
    server.listen(port, host, () => resolve());
  });
}
