/**
 * The exporter: every page of a list query, followed with a bound, and written as CSV or JSON.
 * One module for every front end: the app's and the preview's "Export…" (through the gateway)
 * and the CLI's `reports list --format csv|json` and `--all`.
 *
 * Paging is the one page walk the full sync also uses (shared/paging.ts): up to PAGES_IN_FLIGHT
 * requests at once, pages kept in page order, one at a time after a 429 and never before its
 * Retry-After. It stops at the last page the service names (or on a short page when it names
 * none), it refuses a page that brings no new report (a service that ignores `page` would
 * otherwise be asked forever), and it never asks for more pages than the total implies (+1)
 * nor more than MAX_EXPORT_PAGES.
 */
import type { DataSource, Sourced } from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import type { Report, ReportPage } from '../../../shared/model';
import { followPages, PAGES_IN_FLIGHT, rateLimitRetry } from '../../../shared/paging';

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The spec's report fields, first in every CSV, in this order. */
export const SPEC_FIELDS = ['id', 'url', 'result', 'generated_at', 'privacy', 'project'] as const;

/** 1,000 pages of 100: far beyond any account we know, small enough to end a runaway loop. */
export const MAX_EXPORT_PAGES = 1_000;

export type SourcedPage = ReportPage & Sourced;

export interface PagingProgress {
  page: number;
  lastPage: number | null;
  fetched: number;
  total: number | null;
}

export interface CollectOptions {
  /** `signal` aborts when the walk no longer needs the page (it ended, failed, or was cancelled). */
  fetchPage: (page: number, signal: AbortSignal) => Promise<SourcedPage>;
  firstPage?: number;
  signal?: AbortSignal;
  onProgress?: (progress: PagingProgress) => void;
  maxPages?: number;
  /** Requests in flight at once (default PAGES_IN_FLIGHT). */
  concurrency?: number;
}

export interface CollectedReports {
  reports: Report[];
  /** Pages read (handed over in order). */
  pages: number;
  /** Requests sent, retries and pages asked ahead of where the list ended included. */
  requests: number;
  /** The first page's numbers, for a caller that prints them. */
  firstPage: Pick<ReportPage, 'page' | 'perPage'>;
  total: number | null;
  /** 'cache' when any page came from the offline cache, aged by the oldest such page. */
  origin: Sourced;
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new AppFailure(appError('export.cancelled'));
  }
}

/**
 * Follows every page from `firstPage` on through the shared bounded walk (shared/paging.ts);
 * each report once, in the order the pages gave them. A list that keeps growing stops at the
 * page its first total implies (+1) with what was read; a service that ignores `page`, or a
 * walk that reaches the hard maximum with no total to bound it, is an error that says how many
 * reports were taken (reason `paging_ignored` / `page_limit`, for front ends to add their advice).
 */
export async function collectAllPages(options: CollectOptions): Promise<CollectedReports> {
  const { fetchPage, signal, onProgress } = options;
  const maxPages = options.maxPages ?? MAX_EXPORT_PAGES;
  const reports: Report[] = [];
  let first: SourcedPage | undefined;
  let total: number | null = null;
  let cached: Sourced | undefined;
  let pages = 0;

  const walk = await followPages<SourcedPage>({
    firstPage: options.firstPage ?? 1,
    maxPages,
    concurrency: options.concurrency ?? PAGES_IN_FLIGHT,
    retry: rateLimitRetry,
    signal,
    fetchPage: async (pageNumber, walkSignal) => {
      throwIfCancelled(signal);
      const page = await fetchPage(pageNumber, walkSignal);
      throwIfCancelled(signal);
      return page;
    },
    onPage: (page, fresh) => {
      first ??= page;
      pages += 1;
      total = page.total ?? total;
      if (page.source === 'cache' && (cached === undefined || page.fetchedAt < cached.fetchedAt)) {
        cached = { source: 'cache', fetchedAt: page.fetchedAt };
      }
      // Pages from two sources (or a list that shifted) may overlap; each report once.
      reports.push(...fresh);
      onProgress?.({ page: page.page, lastPage: page.lastPage, fetched: reports.length, total });
    },
  });
  const taken = { reports: reports.length, requests: walk.requests };
  if (walk.stop === 'paging_ignored') {
    throw new AppFailure(
      appError('paging.ignored', { page: walk.lastPageAsked, ...taken }, { reason: 'paging_ignored' }),
    );
  }
  if (walk.stop === 'page_limit' && walk.requests >= maxPages) {
    throw new AppFailure(appError('paging.limit', { pages: maxPages, ...taken }, { reason: 'page_limit' }));
  }
  if (!first) throw new AppFailure(appError('reply.no_page'));
  return {
    reports,
    pages,
    requests: walk.requests,
    firstPage: { page: first.page, perPage: first.perPage },
    total,
    origin: cached ?? { source: first.source, fetchedAt: first.fetchedAt },
  };
}

// ---- CSV ------------------------------------------------------------------------------------

/** Cells a spreadsheet would read as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Every field the reports carry: the spec's first, then the others in first-seen order. */
export function exportColumns(reports: readonly Report[]): string[] {
  const columns: string[] = [...SPEC_FIELDS];
  const known = new Set<string>(columns);
  for (const report of reports) {
    for (const key of Object.keys(report)) {
      if (known.has(key)) continue;
      known.add(key);
      columns.push(key);
    }
  }
  return columns;
}

function isDateField(name: string): boolean {
  return name === 'generated_at' || name.endsWith('_at') || name.endsWith('_date');
}

/** A cell's text: dates as ISO 8601 UTC, objects as JSON, nothing for null. */
function cellText(field: string, value: unknown): { text: string; fromNumber: boolean } {
  if (value === null || value === undefined) return { text: '', fromNumber: false };
  if (typeof value === 'number') return { text: String(value), fromNumber: true };
  if (typeof value === 'string') {
    if (isDateField(field)) {
      const time = Date.parse(value);
      if (!Number.isNaN(time)) return { text: new Date(time).toISOString(), fromNumber: false };
    }
    return { text: value, fromNumber: false };
  }
  if (typeof value === 'boolean') return { text: String(value), fromNumber: false };
  return { text: JSON.stringify(value), fromNumber: false };
}

/**
 * A text a spreadsheet will not run: a leading `'` before = + - @ tab or CR. A number the
 * service sent as a JSON number (-3) is data, not a formula, and stays as it is.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, and its quotes doubled. */
function quoteField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * RFC 4180 CSV (CRLF line ends, a header row) of rows of values: numbers as they are, null as an
 * empty cell, text with formulas neutralised, dates (columns named like them) as ISO 8601 UTC.
 * The caller writes it as UTF-8.
 */
export function csvTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const lines = [columns.map((c) => quoteField(neutraliseFormula(c))).join(',')];
  for (const row of rows) {
    lines.push(
      columns
        .map((column, i) => {
          const { text, fromNumber } = cellText(column, row[i]);
          return quoteField(fromNumber ? text : neutraliseFormula(text));
        })
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** The reports as CSV: every field they carry, the spec's first (see csvTable). */
export function reportsToCsv(reports: readonly Report[]): string {
  const columns = exportColumns(reports);
  return csvTable(
    columns,
    reports.map((report) => columns.map((column) => report[column])),
  );
}

// ---- JSON -----------------------------------------------------------------------------------

export interface ExportMeta {
  exportedAt: string;
  source: DataSource;
  /** When the data was fetched: now for the network, the cache's age offline. */
  fetchedAt: string;
  total: number | null;
}

/** The reports as the service sent them, with where they came from and when. */
export function reportsToJson(reports: readonly Report[], meta: ExportMeta): string {
  return (
    JSON.stringify(
      {
        exported_at: meta.exportedAt,
        source: meta.source,
        fetched_at: meta.fetchedAt,
        total: meta.total,
        count: reports.length,
        data: reports,
      },
      null,
      2,
    ) + '\n'
  );
}

export function formatReports(format: ExportFormat, reports: readonly Report[], meta: ExportMeta): string {
  return format === 'csv' ? reportsToCsv(reports) : reportsToJson(reports, meta);
}

/** "reports-2026-11-23T1205.csv": sortable, no characters any file system refuses. */
export function exportFileName(format: ExportFormat, at: Date, what = 'reports'): string {
  const stamp = at.toISOString().slice(0, 16).replace(/:/g, '');
  return `${what}-${stamp}.${format}`;
}
