/**
 * The `report-desk` commands and `runCli`. Everything goes through the core's gateway (one
 * createCoreServices per run, see ./session), so the CLI shares the desktop app's profiles,
 * keychain entries and offline cache.
 *
 * Input is checked against the shared schemas before anything is sent; every failure ends as
 * one sentence on stderr (plus field lines for rejected input) and an exit code a script can
 * branch on. The API key comes from the environment or the keychain, never an argument.
 */
import type { Sourced } from '../../shared/contract';
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
import { extname, resolve as resolvePath } from 'node:path';
import { writeExportFile } from '../core/export/exportFile';
import { collectAllPages, EXPORT_FORMATS, formatReports, type ExportFormat } from '../core/export/exporter';
import { registerSecret } from '../core/log';
import { nativeModuleFailureMessage } from '../core/nativeModules';
import { parseArgs, usageText, UsageError, type Grammar, type OptionSpec, type OptionValues } from './args';
import { CACHE_COMMANDS } from './cacheCommands';
import {
  PROGRAM,
  readStdin,
  text,
  validated,
  withoutUndefined,
  type CliCommand,
  type CliIo,
} from './context';
import { DATA_DIR_ENV } from './dataDir';
import { cliErrorMessage } from './errorWords';
import {
  allPagesSummary,
  errorText,
  listJson,
  offlineNote,
  pageSummary,
  recordJson,
  recordText,
  reportTable,
  toJson,
} from './format';
import { PROFILE_COMMANDS } from './profileCommands';
import { CliSession, KEYCHAIN_SERVICE_ENV, RETRY_BASE_ENV, SYNC_LEASE_ENV } from './session';

export type { CliIo } from './context';

export const EXIT_CODES = {
  ok: 0,
  usage: 2,
  keyRejected: 3,
  notFound: 4,
  inputRejected: 5,
  network: 6,
  rateLimited: 7,
  /** Any other service error, a reply we cannot read, the keychain, the data folder. */
  serviceError: 8,
  /** A sync of the same profile (or a long profile change) is running in another process: try again once it has finished. */
  busy: 9,
} as const;

export function exitCodeFor(kind: ErrorKind): number {
  switch (kind) {
    case 'invalid_input':
    case 'insecure_url':
    case 'no_profile':
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
    case 'busy':
      return EXIT_CODES.busy;
    // Neither a usage mistake nor the service's answer: the machine's keychain.
    case 'keychain_unavailable':
      return EXIT_CODES.serviceError;
    default:
      return EXIT_CODES.serviceError;
  }
}

/** --all asks for the largest page unless told otherwise: fewer round trips. */
const ALL_PAGES_PER_PAGE = 100;

function option(name: string, description: string, value?: string, choices?: readonly string[]): OptionSpec {
  return { name, description, value, choices };
}

const OPTIONS: Record<string, OptionSpec> = {
  'base-url': option(
    'base-url',
    'Report Service address, with REPORT_DESK_API_KEY (default: $REPORT_DESK_BASE_URL) or for profiles add',
    'URL',
  ),
  'data-dir': option(
    'data-dir',
    `where profiles and the offline cache live (default: $${DATA_DIR_ENV}, else the app's folder)`,
    'DIR',
  ),
  timeout: option('timeout', 'seconds to wait for each request (default 15)', 'SECONDS'),
  'allow-insecure-http': option(
    'allow-insecure-http',
    'allow plain http:// to a host other than this computer',
  ),
  json: option('json', 'print only JSON on stdout, for scripts'),
  verbose: option('verbose', 'log each request to stderr'),
  help: option('help', 'show help'),
  profile: option('profile', 'use this profile (else the active one); wins over REPORT_DESK_API_KEY', 'NAME'),
  'no-cache': option('no-cache', 'never answer from the offline cache: an unreachable service is exit 6'),
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
  format: option(
    'format',
    'table (default), or csv / json as the app exports them; csv and json default from --output’s extension',
    'FORMAT',
    ['table', ...EXPORT_FORMATS],
  ),
  output: option('output', 'write the list to FILE (replaced atomically, readable by you only)', 'FILE'),
};

/** --format, else the extension of --output, else the table; --json is the table's JSON form. */
function outputFormat(options: OptionValues): 'table' | ExportFormat {
  const given = text(options, 'format') as 'table' | ExportFormat | undefined;
  const output = text(options, 'output');
  if (given !== undefined && given !== 'json' && options.json === true) {
    throw new UsageError(`--json and --format ${given} ask for two formats; give one.`, ['reports', 'list']);
  }
  if (given !== undefined) return given;
  const extension = output === undefined ? '' : extname(output).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.json') return 'json';
  if (output !== undefined && options.json !== true) {
    throw new UsageError(`Which format should ${output} have? Add --format csv or --format json.`, [
      'reports',
      'list',
    ]);
  }
  return 'table';
}

const GLOBAL_OPTIONS = ['base-url', 'data-dir', 'timeout', 'allow-insecure-http', 'json', 'verbose', 'help'];

async function readPassword(io: CliIo, topic: string[]): Promise<string> {
  if (io.stdinIsTTY === true) {
    // A terminal echoes what is typed: the password would show on screen (and in a recording).
    throw new UsageError(
      `--password-stdin reads the password from a pipe so that it never shows on screen; pipe it in: printf %s "$PASSWORD" | ${PROGRAM} ${topic.join(' ')} … --password-stdin.`,
      topic,
    );
  }
  const received = await readStdin(io.stdin, 'password');
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

/** The note on stderr when an answer came from the cache; nothing for network answers. */
function noteIfCached(io: CliIo, origin: Sourced, what: string): void {
  if (origin.source === 'cache')
    io.stderr.write(offlineNote(what, origin.fetchedAt, io.now?.() ?? new Date()));
}

/** A walk stopped by its bound gets the CLI's way out: the pages one at a time. */
function withPagingAdvice(thrown: unknown): never {
  const reason = thrown instanceof AppFailure ? thrown.error.reason : undefined;
  if (thrown instanceof AppFailure && (reason === 'paging_ignored' || reason === 'page_limit')) {
    throw new AppFailure({
      ...thrown.error,
      message: `${thrown.error.message} List the pages one by one with --page instead of --all.`,
    });
  }
  throw thrown;
}

const REPORT_COMMANDS: CliCommand[] = [
  {
    words: ['account'],
    positionals: [],
    options: ['profile', 'no-cache'],
    summary: 'Show the account that owns the API key.',
    async run({ io, json, connect }) {
      const core = await connect();
      const result = await core.handlers['account:get'](undefined);
      io.stdout.write(json ? recordJson(result.account, result) : recordText(result.account));
      noteIfCached(io, result, 'the account as');
    },
  },
  {
    words: ['reports', 'list'],
    positionals: [],
    options: [
      'search',
      'search-by',
      'project',
      'result',
      'sort-by',
      'sort',
      'per-page',
      'page',
      'all',
      'format',
      'output',
      'profile',
      'no-cache',
    ],
    summary:
      'List reports: one page, or every page with --all; as a table, CSV or JSON, to stdout or a file.',
    async run({ io, options, json, connect }) {
      const all = options.all === true;
      const format = outputFormat(options);
      const outputFile = text(options, 'output');
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
      const core = await connect();
      const fetchPage = (q: ParsedListQuery) => core.handlers['reports:list'](q);
      let reports: Report[];
      let origin: Sourced;
      let total: number | null;
      let tableText: () => string;
      let firstPage: Pick<ReportPage, 'page' | 'perPage'>;
      if (all) {
        const collected = await collectAllPages({
          fetchPage: (page) => fetchPage({ ...query, page }),
          firstPage: query.page ?? 1,
        }).catch(withPagingAdvice);
        ({ reports, origin, total, firstPage } = collected);
        tableText = () => reportTable(reports) + allPagesSummary(reports.length, collected.pages);
      } else {
        const page = await fetchPage(query);
        ({ reports, total } = page);
        origin = page;
        firstPage = page;
        tableText = () => reportTable(reports) + pageSummary(page);
      }
      const out =
        format !== 'table'
          ? formatReports(format, reports, {
              exportedAt: (io.now?.() ?? new Date()).toISOString(),
              source: origin.source,
              fetchedAt: origin.fetchedAt,
              total,
            })
          : json
            ? listJson(reports, { ...firstPage, total }, origin)
            : tableText();
      if (outputFile === undefined) {
        io.stdout.write(out);
      } else {
        const path = resolvePath(outputFile);
        writeExportFile(path, out);
        io.stderr.write(`Wrote ${reports.length} report${reports.length === 1 ? '' : 's'} to ${path}.\n`);
      }
      noteIfCached(io, origin, 'reports');
    },
  },
  {
    words: ['reports', 'get'],
    positionals: ['ID'],
    options: ['profile', 'no-cache'],
    summary: 'Show one report.',
    async run({ io, positionals, json, connect }) {
      const id = reportId(positionals[0]);
      const core = await connect();
      const result = await core.handlers['reports:get']({ id });
      io.stdout.write(json ? recordJson(result.report, result) : recordText(result.report));
      noteIfCached(io, result, `report ${id} as`);
    },
  },
  {
    words: ['reports', 'create'],
    positionals: [],
    options: ['url', 'privacy', 'password-stdin', 'profile'],
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
          password: passwordStdin ? await readPassword(io, ['reports', 'create']) : undefined,
        }),
        { url: '--url', privacy: '--privacy', password: '--password-stdin' },
      );
      const report = await (await connect()).handlers['reports:create'](fields);
      io.stdout.write(json ? toJson(report) : `Created report ${report.id}.\n` + recordText(report));
    },
  },
  {
    words: ['reports', 'update'],
    positionals: ['ID'],
    options: ['privacy', 'password-stdin', 'results', 'profile'],
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
          password: passwordStdin ? await readPassword(io, ['reports', 'update']) : undefined,
          results: results === undefined ? undefined : results === 'yes' ? 1 : 0,
        }),
        { privacy: '--privacy', password: '--password-stdin', results: '--results' },
      );
      const report = await (await connect()).handlers['reports:update']({ id, changes });
      io.stdout.write(json ? toJson(report) : `Updated report ${report.id}.\n` + recordText(report));
    },
  },
  {
    words: ['reports', 'delete'],
    positionals: ['ID'],
    options: ['yes', 'profile'],
    summary: 'Delete a report (it cannot be undone; confirm with --yes).',
    async run({ io, positionals, options, json, connect }) {
      const id = reportId(positionals[0]);
      if (options.yes !== true) {
        throw new UsageError(`Deleting report ${id} cannot be undone; add --yes to confirm.`, [
          'reports',
          'delete',
        ]);
      }
      const { deleted } = await (await connect()).handlers['reports:delete']({ id });
      io.stdout.write(json ? toJson({ deleted }) : `Deleted report ${deleted}.\n`);
    },
  },
];

const EPILOGUE = `Connection:
  With REPORT_DESK_API_KEY set (and no --profile), requests use that key and --base-url or
  REPORT_DESK_BASE_URL; their offline cache is kept apart per base URL and key (the key itself
  is never stored). Otherwise the profile named by --profile, else the active profile, is
  used with its key from the system keychain. An explicit --profile wins: the environment's
  key is then ignored.

Profiles:
  Shared with the desktop app (same data folder, same keychain entries). profiles add reads
  the key from stdin, one line: printf %s "$KEY" | ${PROGRAM} profiles add NAME --base-url URL.
  The key is checked with the service first: rejected, it is exit 3 and nothing is saved.
  When the system keychain cannot be used (locked, or no Secret Service), exit 8.

Offline:
  When the service cannot be reached, account, reports list and reports get answer from the
  offline cache: exit 0, a note with the cache's age on stderr, and in JSON "source": "cache"
  with "cached_at". reports list --json keeps its shape ({data, page, per_page, total, source,
  cached_at}); account and reports get --json print {"data": RECORD, "source": "cache",
  "cached_at": TIME} instead of the bare record. --no-cache turns this off (exit 6). Changes
  are never queued: while the service cannot be reached they fail with exit 6.

Environment:
  REPORT_DESK_API_KEY        the API key (never given as an argument); see Connection
  REPORT_DESK_BASE_URL       the base URL when --base-url is not given
  ${DATA_DIR_ENV}       the data folder when --data-dir is not given (default: the
                             desktop app's folder, e.g. ~/.config/ReportDesk on Linux)
  ${RETRY_BASE_ENV}  first retry delay in milliseconds (default 300; tests set it low)
  ${SYNC_LEASE_ENV}  how long a cache sync's claim outlives a killed process, in
                             milliseconds (default 20000; tests set it low)
  ${KEYCHAIN_SERVICE_ENV}
                             the keychain service of the API keys (default ReportDesk,
                             the desktop app's; tests give each run its own)

Exit codes:
  0 success   2 invalid usage or input   3 key rejected or missing   4 not found
  5 input rejected by the service   6 network error, time-out, or offline
  7 still rate-limited after retries
  8 other service error or bad response, or the system keychain could not be used
  9 a cache sync of the same profile is already running in another window or command,
    or another one kept the profiles locked for over 10 seconds`;

export const GRAMMAR: Grammar<CliCommand> = {
  program: PROGRAM,
  options: OPTIONS,
  globalOptions: GLOBAL_OPTIONS,
  commands: [...REPORT_COMMANDS, ...PROFILE_COMMANDS, ...CACHE_COMMANDS],
  epilogue: EPILOGUE,
};

function usageHint(topic: readonly string[]): string {
  return `Run "${[PROGRAM, 'help', ...topic].join(' ')}" for usage.`;
}

/** Runs one CLI invocation and answers its exit code. Never throws, never prints a stack. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let session: CliSession | undefined;
  try {
    const parsed = parseArgs(argv, GRAMMAR);
    if (parsed.help) {
      io.stdout.write(usageText(GRAMMAR, parsed.topic));
      return EXIT_CODES.ok;
    }
    const { command, positionals, options } = parsed;
    const opened = new CliSession(io, options);
    session = opened;
    await command.run({
      io,
      positionals,
      options,
      json: options.json === true,
      open: () => opened.open(),
      connect: () => opened.connect(),
    });
    return EXIT_CODES.ok;
  } catch (thrown) {
    if (thrown instanceof UsageError) {
      io.stderr.write(`${thrown.message} ${usageHint(thrown.topic)}\n`);
      return EXIT_CODES.usage;
    }
    const wrongBuild = nativeModuleFailureMessage(thrown, 'node');
    if (wrongBuild) {
      io.stderr.write(errorText(appError('internal', wrongBuild)));
      return exitCodeFor('internal');
    }
    const error = toAppError(thrown);
    io.stderr.write(
      errorText({ ...error, message: cliErrorMessage(error, { profileName: session?.profileName }) }),
    );
    return exitCodeFor(error.kind);
  } finally {
    await session?.close().catch(() => {
      // Everything was already written (SQLite commits per statement); a failed close changes nothing.
    });
  }
}
