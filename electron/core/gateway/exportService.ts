/**
 * Export: every page of the list's query, in the largest pages, each from the service or
 * (offline) the cache, formatted as one file; one export at a time, cancellable. `collect` is
 * the walk itself, shared with the CLI's `reports list --all`.
 */
import type {
  ChannelParsedInput,
  ExportResult,
  ExportSaveResult,
  ReportPageResult,
  Sourced,
} from '../../../shared/contract';
import { AppFailure, appError } from '../../../shared/errors';
import type { ListQuery } from '../../../shared/model';
import type { EventHub } from '../events';
import {
  collectAllPages,
  exportFileName,
  formatReports,
  type CollectedReports,
  type CollectOptions,
  type ExportFormat,
} from '../export/exporter';
import type { ListOptions } from './reportsService';

/**
 * Asks where to save an export and writes it (the app's save dialog); answers the path, or
 * null when the user cancelled. Without it, front ends save exports themselves (a download).
 */
export type SaveExport = (fileName: string, format: ExportFormat, content: string) => Promise<string | null>;

export class ExportService {
  private exporting: AbortController | null = null;

  constructor(
    private readonly listReports: (query: ListQuery, options?: ListOptions) => Promise<ReportPageResult>,
    private readonly events: EventHub,
    private readonly now: () => Date,
    private readonly saveExport?: SaveExport,
  ) {}

  /** True while an export runs in this process (a restart into an update waits for it). */
  get busy(): boolean {
    return this.exporting !== null;
  }

  async run(input: ChannelParsedInput<'reports:export'>): Promise<ExportResult> {
    if (this.exporting) {
      throw new AppFailure(appError('export.running'));
    }
    const controller = new AbortController();
    this.exporting = controller;
    try {
      const collected = await this.collect(
        { ...input.query, per_page: 100 },
        {
          signal: controller.signal,
          onProgress: (progress) => this.events.emit('export:progress', progress),
        },
      );
      const now = this.now();
      const { source, fetchedAt } = collected.origin;
      const content = formatReports(input.format, collected.reports, {
        exportedAt: now.toISOString(),
        source,
        fetchedAt,
        total: collected.total,
      });
      return this.ready({ format: input.format, content, count: collected.reports.length }, now, {
        pages: collected.pages,
        ...collected.origin,
      });
    } finally {
      this.exporting = null;
    }
  }

  /**
   * A file made elsewhere (history's, issue 27) as an export: its name, and how the front end
   * saves it (through `export:save`, or a download).
   */
  ready(
    file: Pick<ExportResult, 'format' | 'content' | 'count'>,
    at: Date,
    origin: Sourced & { pages: number },
    what?: string,
  ): ExportResult {
    return {
      ...file,
      ...origin,
      fileName: exportFileName(file.format, at, what),
      saveBy: this.saveExport ? 'dialog' : 'download',
    };
  }

  /**
   * Every page of `query` from `firstPage` on (the shared walk: four in flight, in page order).
   * The first page is asked as any list page; the later ones hand a 429 to the walk, which then
   * asks one page at a time and waits out the Retry-After.
   */
  collect(
    query: ListQuery,
    options: Pick<CollectOptions, 'firstPage' | 'signal' | 'onProgress'> = {},
  ): Promise<CollectedReports> {
    const first = options.firstPage ?? 1;
    return collectAllPages({
      ...options,
      // The pages go to the cache once the walk pauses: the SQLite work never delays a request.
      fetchPage: (page, signal) =>
        this.listReports(
          { ...query, page },
          page === first
            ? { signal, deferWrite: true }
            : { signal, retryRateLimited: false, deferWrite: true },
        ),
    });
  }

  cancel(): { cancelled: boolean } {
    const running = this.exporting;
    running?.abort();
    return { cancelled: running !== null };
  }

  async save(input: ChannelParsedInput<'export:save'>): Promise<ExportSaveResult> {
    if (!this.saveExport) return { saved: false, path: null, download: true };
    const path = await this.saveExport(input.fileName, input.format, input.content);
    return { saved: path !== null, path, download: false };
  }
}
