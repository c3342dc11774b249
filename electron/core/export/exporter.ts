/**
 * The exporter: every page of a list query, followed with a bound, and written as CSV or JSON.
 * One module for every front end: the app's and the preview's "Export…" (through the gateway)
 * and the CLI's `reports list --format csv|json` and `--all`.
 *
 * Paging is bounded three ways: it stops at the last page the service names (or on a short
 * page when it names none), it refuses a page that brings no new report (a service that ignores
 * `page` would otherwise be asked forever), and it never asks for more pages than the first
 * page's total implies (+1 for reports added meanwhile) nor more than MAX_EXPORT_PAGES.
 */
import type { DataSource, Sourced } from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import type { Report, ReportPage } from '../../../shared/model';

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
  fetchPage: (page: number, signal: AbortSignal) => Promise<SourcedPage>;
  firstPage?: number;
  signal?: AbortSignal;
  onProgress?: (progress: PagingProgress) => void;
  maxPages?: number;
}

export interface CollectedReports {
  reports: Report[];
  pages: number;
  /** The first page's numbers, for a caller that prints them. */
  firstPage: Pick<ReportPage, 'page' | 'perPage'>;
  total: number | null;
  /** 'cache' when any page came from the offline cache, aged by the oldest such page. */
  origin: Sourced;
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new AppFailure(appError('cancelled', 'The export was cancelled; no file was written.'));
  }
}

/** Follows every page from `firstPage` on; each report once, in the order the pages gave them. */
export async function collectAllPages(options: CollectOptions): Promise<CollectedReports> {
  const { fetchPage, signal, onProgress } = options;
  const maxPages = options.maxPages ?? MAX_EXPORT_PAGES;
  const start = options.firstPage ?? 1;
  const neverAborted = new AbortController().signal;
  const reports: Report[] = [];
  const seen = new Set<string>();
  let pageNumber = start;
  let pages = 0;
  let first: SourcedPage | undefined;
  let total: number | null = null;
  let pageLimit = maxPages;
  let cached: Sourced | undefined;

  for (;;) {
    throwIfCancelled(signal);
    const page = await fetchPage(pageNumber, signal ?? neverAborted);
    throwIfCancelled(signal);
    pages++;
    if (!first) {
      first = page;
      if (page.total !== null && page.perPage > 0) {
        // The pages the first answer implies, one more for reports added while we page.
        pageLimit = Math.min(maxPages, Math.ceil(page.total / page.perPage) - start + 2);
      }
    }
    total = page.total ?? total;
    if (page.source === 'cache' && (cached === undefined || page.fetchedAt < cached.fetchedAt)) {
      cached = { source: 'cache', fetchedAt: page.fetchedAt };
    }
    let added = 0;
    for (const report of page.reports) {
      // Pages from two sources (or a list that shifted) may overlap; each report once.
      if (seen.has(report.id)) continue;
      seen.add(report.id);
      reports.push(report);
      added++;
    }
    onProgress?.({ page: pageNumber, lastPage: page.lastPage, fetched: reports.length, total });
    if (page.reports.length > 0 && added === 0) {
      throw new AppFailure(
        appError(
          'bad_response',
          `The Report Service sent the same reports again for page ${pageNumber}, so it does not seem to support paging.`,
        ),
      );
    }
    const more =
      page.lastPage !== null
        ? pageNumber < page.lastPage
        : page.reports.length >= page.perPage && page.reports.length > 0;
    if (!more) break;
    if (pages >= pageLimit) {
      if (pageLimit === maxPages) {
        throw new AppFailure(
          appError(
            'bad_response',
            `The list did not end after ${maxPages} pages, so paging was stopped. Narrow the search or filters and try again.`,
          ),
        );
      }
      // The service's own total says we have every page; a list that keeps growing stops here.
      break;
    }
    pageNumber++;
  }
  return {
    reports,
    pages,
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

/** RFC 4180 CSV (CRLF line ends, a header row); the caller writes it as UTF-8. */
export function reportsToCsv(reports: readonly Report[]): string {
  const columns = exportColumns(reports);
  const lines = [columns.map((c) => quoteField(neutraliseFormula(c))).join(',')];
  for (const report of reports) {
    lines.push(
      columns
        .map((column) => {
          const { text, fromNumber } = cellText(column, report[column]);
          return quoteField(fromNumber ? text : neutraliseFormula(text));
        })
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
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
export function exportFileName(format: ExportFormat, at: Date): string {
  const stamp = at.toISOString().slice(0, 16).replace(/:/g, '');
  return `reports-${stamp}.${format}`;
}
