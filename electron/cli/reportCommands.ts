/**
 * The `report-desk account` and `reports …` commands. Input is checked against the shared
 * schemas before anything is sent; reads answer from the offline cache when the service cannot
 * be reached (with a note on stderr).
 */
import type { Sourced } from '../../shared/contract';
import { AppFailure } from '../../shared/errors';
import {
  CreateReportInputSchema,
  ListQuerySchema,
  ReportIdSchema,
  UpdateReportInputSchema,
  privacyFromName,
  type ParsedListQuery,
  type PrivacyName,
  type Report,
  type ReportPage,
} from '../../shared/report';
import { extname, resolve as resolvePath } from 'node:path';
import { writeExportFile } from '../core/export/exportFile';
import { formatReports, type ExportFormat } from '../core/export/exporter';
import { registerSecret } from '../core/log';
import { UsageError, type OptionValues } from './args';
import {
  PROGRAM,
  readStdin,
  text,
  validated,
  withoutUndefined,
  type CliCommand,
  type CliIo,
} from './context';
import {
  allPagesSummary,
  listJson,
  offlineNote,
  pageSummary,
  recordJson,
  recordText,
  reportTable,
  toJson,
} from './format';

/** --all asks for the largest page unless told otherwise: fewer round trips. */
const ALL_PAGES_PER_PAGE = 100;

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

export const REPORT_COMMANDS: CliCommand[] = [
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
        const collected = await core.listAll(query, { firstPage: query.page ?? 1 }).catch(withPagingAdvice);
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
