/**
 * The `report-desk` commands. Everything the outside world provides (streams, environment,
 * fetch) comes in through `CliIo`, so tests run `runCli` in-process exactly as main.ts does.
 *
 * Input is checked against the shared schemas before anything is sent; every failure ends as
 * one sentence on stderr (plus field lines for rejected input) and an exit code a script can
 * branch on. The API key comes from the environment only.
 */
import type { z } from 'zod';
import { AppFailure, appError, toAppError, type ErrorKind } from '../../shared/errors';
import {
  CreateReportInputSchema,
  ListQuerySchema,
  PER_PAGE_VALUES,
  PRIVACY_NAMES,
  REPORT_RESULTS,
  ReportIdSchema,
  SORT_BY_VALUES,
  SORT_VALUES,
  UpdateReportInputSchema,
  privacyFromName,
  type ParsedListQuery,
  type PrivacyName,
  type Report,
  type ReportPage,
} from '../../shared/report';
import { ReportServiceClient } from '../core/api/client';
import { createLogger, registerSecret } from '../core/log';
import {
  parseArgs,
  usageText,
  UsageError,
  type CommandSpec,
  type Grammar,
  type OptionSpec,
  type OptionValues,
} from './args';
import { allPagesSummary, errorText, listJson, pageSummary, recordText, reportTable, toJson } from './format';

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Read only by --password-stdin. */
  stdin: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
  env: Readonly<Record<string, string | undefined>>;
  /** Node's fetch unless a test injects another. */
  fetch?: typeof globalThis.fetch;
}

export const EXIT_CODES = {
  ok: 0,
  usage: 2,
  keyRejected: 3,
  notFound: 4,
  inputRejected: 5,
  network: 6,
  rateLimited: 7,
  serviceError: 8,
} as const;

export function exitCodeFor(kind: ErrorKind): number {
  switch (kind) {
    case 'invalid_input':
    case 'insecure_url':
      return EXIT_CODES.usage;
    case 'unauthorized':
    case 'forbidden':
      return EXIT_CODES.keyRejected;
    case 'not_found':
      return EXIT_CODES.notFound;
    case 'validation':
      return EXIT_CODES.inputRejected;
    case 'network':
    case 'timeout':
    case 'offline':
      return EXIT_CODES.network;
    case 'rate_limited':
      return EXIT_CODES.rateLimited;
    default:
      return EXIT_CODES.serviceError;
  }
}

const PROGRAM = 'report-desk';
/** Test knob: the first retry delay in ms (the client's default is 300). */
const RETRY_BASE_ENV = 'REPORT_DESK_RETRY_BASE_MS';
/** --all asks for the largest page unless told otherwise: fewer round trips. */
const ALL_PAGES_PER_PAGE = 100;
/** More than a password could ever be; stops a runaway pipe early. */
const MAX_STDIN_BYTES = 16 * 1024;

function option(name: string, description: string, value?: string, choices?: readonly string[]): OptionSpec {
  return { name, description, value, choices };
}

const OPTIONS: Record<string, OptionSpec> = {
  'base-url': option('base-url', 'Report Service address (default: $REPORT_DESK_BASE_URL)', 'URL'),
  timeout: option('timeout', 'seconds to wait for each request (default 15)', 'SECONDS'),
  'allow-insecure-http': option(
    'allow-insecure-http',
    'allow plain http:// to a host other than this computer',
  ),
  json: option('json', 'print only JSON on stdout, for scripts'),
  verbose: option('verbose', 'log each request to stderr'),
  help: option('help', 'show help'),
  search: option('search', 'only reports whose URL contains TEXT', 'TEXT'),
  'search-by': option('search-by', 'the field --search looks in', 'FIELD', ['url']),
  project: option('project', 'only reports of project NAME', 'NAME'),
  result: option('result', 'only reports with this result', 'RESULT', REPORT_RESULTS),
  'sort-by': option('sort-by', 'sort field (default id)', 'FIELD', SORT_BY_VALUES),
  sort: option('sort', 'sort direction (default desc)', 'DIR', SORT_VALUES),
  'per-page': option(
    'per-page',
    'reports per page (default 10; 100 with --all)',
    'N',
    PER_PAGE_VALUES.map(String),
  ),
  page: option('page', 'page number (default 1)', 'N'),
  all: option('all', 'follow every page from --page on'),
  url: option('url', 'the address to analyse', 'URL'),
  privacy: option('privacy', 'who may see the report', 'PRIVACY', PRIVACY_NAMES),
  'password-stdin': option('password-stdin', 'read the report password from stdin (with --privacy password)'),
  results: option('results', 'the service’s results flag', 'YESNO', ['yes', 'no']),
  yes: option('yes', 'confirm the deletion (it cannot be undone)'),
};

const GLOBAL_OPTIONS = ['base-url', 'timeout', 'allow-insecure-http', 'json', 'verbose', 'help'];

interface CommandContext {
  io: CliIo;
  positionals: string[];
  options: OptionValues;
  json: boolean;
  /** Builds the client; called only after the command's input is valid. */
  connect(): ReportServiceClient;
}

interface CliCommand extends CommandSpec {
  run(context: CommandContext): Promise<void>;
}

function text(options: OptionValues, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

/** Parses with a shared schema; a failure names the CLI option, not the API field. */
function validated<S extends z.ZodType>(
  schema: S,
  input: unknown,
  optionFor: Record<string, string> = {},
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'input');
    (fieldErrors[optionFor[field] ?? field] ??= []).push(issue.message);
  }
  const message = parsed.error.issues[0]?.message ?? 'The input is not valid.';
  throw new AppFailure(appError('invalid_input', message, { fieldErrors }));
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

async function readPassword(stdin: CliIo['stdin']): Promise<string> {
  const decoder = new TextDecoder();
  let received = '';
  for await (const chunk of stdin) {
    received += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (received.length > MAX_STDIN_BYTES) {
      throw new AppFailure(
        appError('invalid_input', 'The password on stdin is far too long. Pipe in only the password.'),
      );
    }
  }
  received += decoder.decode();
  // One trailing newline is what `echo` and here-strings add; anything else is the password.
  const password = received.replace(/\r?\n$/, '');
  registerSecret(password);
  return password;
}

function checkPasswordOptions(privacy: string | undefined, passwordStdin: boolean): void {
  if (privacy === 'password' && !passwordStdin) {
    throw new UsageError(
      'A password-protected report needs a password: pipe it in and add --password-stdin.',
    );
  }
  if (passwordStdin && privacy !== 'password') {
    throw new UsageError('--password-stdin is only used with --privacy password.');
  }
}

function reportId(raw: string): string {
  return validated(ReportIdSchema, raw, { input: 'ID' });
}

const LIST_OPTION_FOR: Record<string, string> = {
  search: '--search',
  search_by: '--search-by',
  project: '--project',
  result: '--result',
  sort_by: '--sort-by',
  sort: '--sort',
  per_page: '--per-page',
  page: '--page',
};

async function listAllPages(client: ReportServiceClient, query: ParsedListQuery) {
  const reports: Report[] = [];
  const seen = new Set<string>();
  let pageNumber = query.page ?? 1;
  let pages = 0;
  let first: ReportPage | undefined;
  let last: ReportPage;
  for (;;) {
    last = await client.listReports({ ...query, page: pageNumber });
    first ??= last;
    pages++;
    if (last.reports.length > 0 && last.reports.every((r) => seen.has(r.id))) {
      // A service that ignores `page` would otherwise be asked forever.
      throw new AppFailure(
        appError(
          'bad_response',
          `The Report Service sent the same reports again for page ${pageNumber}, so it does not seem to support paging. List the pages one by one with --page instead of --all.`,
        ),
      );
    }
    for (const report of last.reports) {
      seen.add(report.id);
      reports.push(report);
    }
    const more =
      last.lastPage !== null
        ? pageNumber < last.lastPage
        : last.reports.length >= last.perPage && last.reports.length > 0;
    if (!more) break;
    pageNumber++;
  }
  return { reports, pages, first, total: last.total ?? first.total };
}

const COMMANDS: CliCommand[] = [
  {
    words: ['account'],
    positionals: [],
    options: [],
    summary: 'Show the account that owns the API key.',
    async run({ io, json, connect }) {
      const account = await connect().getAccount();
      io.stdout.write(json ? toJson(account) : recordText(account));
    },
  },
  {
    words: ['reports', 'list'],
    positionals: [],
    options: ['search', 'search-by', 'project', 'result', 'sort-by', 'sort', 'per-page', 'page', 'all'],
    summary: 'List reports: one page, or every page with --all.',
    async run({ io, options, json, connect }) {
      const all = options.all === true;
      const perPage = text(options, 'per-page') ?? (all ? String(ALL_PAGES_PER_PAGE) : undefined);
      const query = validated(
        ListQuerySchema,
        withoutUndefined({
          search: text(options, 'search'),
          search_by: text(options, 'search-by'),
          project: text(options, 'project'),
          result: text(options, 'result'),
          sort_by: text(options, 'sort-by'),
          sort: text(options, 'sort'),
          per_page: perPage,
          page: text(options, 'page'),
        }),
        LIST_OPTION_FOR,
      );
      const client = connect();
      if (!all) {
        const page = await client.listReports(query);
        io.stdout.write(json ? listJson(page.reports, page) : reportTable(page.reports) + pageSummary(page));
        return;
      }
      const { reports, pages, first, total } = await listAllPages(client, query);
      io.stdout.write(
        json
          ? listJson(reports, { page: first.page, perPage: first.perPage, total })
          : reportTable(reports) + allPagesSummary(reports.length, pages),
      );
    },
  },
  {
    words: ['reports', 'get'],
    positionals: ['ID'],
    options: [],
    summary: 'Show one report.',
    async run({ io, positionals, json, connect }) {
      const report = await connect().getReport(reportId(positionals[0]));
      io.stdout.write(json ? toJson(report) : recordText(report));
    },
  },
  {
    words: ['reports', 'create'],
    positionals: [],
    options: ['url', 'privacy', 'password-stdin'],
    required: ['url'],
    summary: 'Create a report for an address.',
    async run({ io, options, json, connect }) {
      const privacy = text(options, 'privacy') as PrivacyName | undefined;
      const passwordStdin = options['password-stdin'] === true;
      checkPasswordOptions(privacy, passwordStdin);
      const fields = validated(
        CreateReportInputSchema,
        withoutUndefined({
          url: text(options, 'url'),
          privacy: privacy === undefined ? undefined : privacyFromName(privacy),
          password: passwordStdin ? await readPassword(io.stdin) : undefined,
        }),
        { url: '--url', privacy: '--privacy', password: '--password-stdin' },
      );
      const report = await connect().createReport(fields);
      io.stdout.write(json ? toJson(report) : `Created report ${report.id}.\n` + recordText(report));
    },
  },
  {
    words: ['reports', 'update'],
    positionals: ['ID'],
    options: ['privacy', 'password-stdin', 'results'],
    summary: 'Change a report’s privacy or its results flag.',
    async run({ io, positionals, options, json, connect }) {
      const id = reportId(positionals[0]);
      const privacy = text(options, 'privacy') as PrivacyName | undefined;
      const results = text(options, 'results');
      if (privacy === undefined && results === undefined) {
        throw new UsageError('Nothing to change: give --privacy or --results.', ['reports', 'update']);
      }
      const passwordStdin = options['password-stdin'] === true;
      checkPasswordOptions(privacy, passwordStdin);
      const changes = validated(
        UpdateReportInputSchema,
        withoutUndefined({
          privacy: privacy === undefined ? undefined : privacyFromName(privacy),
          password: passwordStdin ? await readPassword(io.stdin) : undefined,
          results: results === undefined ? undefined : results === 'yes' ? 1 : 0,
        }),
        { privacy: '--privacy', password: '--password-stdin', results: '--results' },
      );
      const report = await connect().updateReport(id, changes);
      io.stdout.write(json ? toJson(report) : `Updated report ${report.id}.\n` + recordText(report));
    },
  },
  {
    words: ['reports', 'delete'],
    positionals: ['ID'],
    options: ['yes'],
    summary: 'Delete a report (it cannot be undone; confirm with --yes).',
    async run({ io, positionals, options, json, connect }) {
      const id = reportId(positionals[0]);
      if (options.yes !== true) {
        throw new UsageError(`Deleting report ${id} cannot be undone; add --yes to confirm.`, [
          'reports',
          'delete',
        ]);
      }
      await connect().deleteReport(id);
      io.stdout.write(json ? toJson({ deleted: id }) : `Deleted report ${id}.\n`);
    },
  },
];

const EPILOGUE = `Environment:
  REPORT_DESK_API_KEY        the API key (required; never given as an argument)
  REPORT_DESK_BASE_URL       the base URL when --base-url is not given
  ${RETRY_BASE_ENV}  first retry delay in milliseconds (default 300; tests set it low)

Exit codes:
  0 success   2 invalid usage or input   3 key rejected   4 not found
  5 input rejected by the service   6 network error or time-out
  7 still rate-limited after retries   8 other service error or bad response`;

export const GRAMMAR: Grammar<CliCommand> = {
  program: PROGRAM,
  options: OPTIONS,
  globalOptions: GLOBAL_OPTIONS,
  commands: COMMANDS,
  epilogue: EPILOGUE,
};

function timeoutMs(options: OptionValues): number | undefined {
  const raw = text(options, 'timeout');
  if (raw === undefined) return undefined;
  const seconds = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(seconds > 0 && seconds <= 3600)) {
    throw new UsageError('--timeout must be a number of seconds between 0 and 3600, like 15.');
  }
  return seconds * 1000;
}

function retryBaseMs(env: CliIo['env']): number | undefined {
  const raw = env[RETRY_BASE_ENV];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw new UsageError(`${RETRY_BASE_ENV} must be a whole number of milliseconds.`);
  return Number(raw);
}

function connector(io: CliIo, options: OptionValues): () => ReportServiceClient {
  return () => {
    const baseUrl = text(options, 'base-url') ?? io.env.REPORT_DESK_BASE_URL;
    if (!baseUrl?.trim()) {
      throw new UsageError(
        'Give the Report Service address with --base-url URL or the environment variable REPORT_DESK_BASE_URL.',
      );
    }
    const apiKey = io.env.REPORT_DESK_API_KEY;
    if (!apiKey?.trim()) {
      throw new UsageError(
        'Set the API key in the environment variable REPORT_DESK_API_KEY; it is never taken as an argument.',
      );
    }
    registerSecret(apiKey);
    const baseDelayMs = retryBaseMs(io.env);
    const logger =
      options.verbose === true
        ? createLogger(PROGRAM, (line) => io.stderr.write(line + '\n'), 'debug')
        : undefined;
    return new ReportServiceClient({
      baseUrl,
      apiKey,
      allowInsecureHttp: options['allow-insecure-http'] === true,
      fetch: io.fetch ?? globalThis.fetch,
      timeoutMs: timeoutMs(options),
      retry: baseDelayMs === undefined ? undefined : { baseDelayMs },
      logger: logger?.child('api'),
    });
  };
}

function usageHint(topic: readonly string[]): string {
  return `Run "${[PROGRAM, 'help', ...topic].join(' ')}" for usage.`;
}

/** Runs one CLI invocation and answers its exit code. Never throws, never prints a stack. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseArgs(argv, GRAMMAR);
    if (parsed.help) {
      io.stdout.write(usageText(GRAMMAR, parsed.topic));
      return EXIT_CODES.ok;
    }
    const { command, positionals, options } = parsed;
    await command.run({
      io,
      positionals,
      options,
      json: options.json === true,
      connect: connector(io, options),
    });
    return EXIT_CODES.ok;
  } catch (thrown) {
    if (thrown instanceof UsageError) {
      io.stderr.write(`${thrown.message} ${usageHint(thrown.topic)}\n`);
      return EXIT_CODES.usage;
    }
    const error = toAppError(thrown);
    io.stderr.write(errorText(error));
    return exitCodeFor(error.kind);
  }
}
