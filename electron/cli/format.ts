/**
 * What the CLI prints: JSON for scripts (--json), tables and records for people. Text that
 * came from the service is stripped of control characters before it reaches a terminal, so a
 * report URL cannot smuggle escape sequences into the user's console.
 */
import type { CacheStatus, ProfilesState, Sourced, SyncProgress, SyncSummary } from '../../shared/contract';
import type { AppError } from '../../shared/errors';
import { formatBytes, timeAgo } from '../../shared/format';
import type { PrivacyValue, Report, ReportPage } from '../../shared/report';
import { withoutControlCharacters } from '../core/text';

export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** The `reports list --json` document; a cache answer adds `cached_at`. */
export function listJson(
  reports: Report[],
  page: Pick<ReportPage, 'page' | 'perPage' | 'total'>,
  origin: Sourced,
): string {
  return toJson({
    data: reports,
    page: page.page,
    per_page: page.perPage,
    total: page.total,
    source: origin.source,
    ...(origin.source === 'cache' ? { cached_at: origin.fetchedAt } : {}),
  });
}

/**
 * One record as JSON: from the network the record itself (as ever); from the cache wrapped as
 * `{data, source, cached_at}`, so the record is never mixed with keys it does not have.
 */
export function recordJson(record: unknown, origin: Sourced): string {
  if (origin.source === 'network') return toJson(record);
  return toJson({ data: record, source: 'cache', cached_at: origin.fetchedAt });
}

/** The stderr line for an answer from the cache; `what` is e.g. "reports" or "report 42 as". */
export function offlineNote(what: string, cachedAt: string, now: Date): string {
  return `Offline: showing ${what} cached ${timeAgo(cachedAt, now)} (the Report Service could not be reached).\n`;
}

export function terminalSafe(text: string): string {
  return withoutControlCharacters(text);
}

export function display(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'string') return terminalSafe(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return terminalSafe(JSON.stringify(value) ?? '-');
}

/** The CLI's names of the privacy values (it speaks English; the app's are in its catalogue). */
const PRIVACY_LABELS: Record<PrivacyValue, string> = { 0: 'Public', 1: 'Private', 2: 'Password' };

export function privacyText(value: unknown): string {
  return typeof value === 'number' && value in PRIVACY_LABELS
    ? PRIVACY_LABELS[value as PrivacyValue]
    : display(value);
}

/** '2025-03-04T10:20:30.000000Z' → '2025-03-04 10:20'; anything else as it came. */
export function dateText(value: unknown): string {
  if (typeof value !== 'string') return display(value);
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(value);
  return match ? `${match[1]} ${match[2]}` : display(value);
}

/** Columns padded to their widest cell; the last column is left ragged. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, col) => Math.max(h.length, ...rows.map((row) => row[col].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, col) => (col === cells.length - 1 ? cell : cell.padEnd(widths[col])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function reportTable(reports: Report[]): string {
  if (reports.length === 0) return 'No reports match.\n';
  const header = ['ID', 'RESULT', 'PRIVACY', 'GENERATED', 'PROJECT', 'URL'];
  const rows = reports.map((r) => [
    display(r.id),
    display(r.result),
    privacyText(r.privacy),
    dateText(r.generated_at),
    display(r.project),
    display(r.url),
  ]);
  return table(header, rows);
}

/** The profiles with the active one marked "*"; keys only ever as their hint "…abcd". */
export function profileTable(state: ProfilesState, program: string): string {
  if (state.profiles.length === 0) {
    return `No profiles yet. Add one: printf %s "$KEY" | ${program} profiles add NAME --base-url URL\n`;
  }
  const rows = state.profiles.map((p) => [
    p.id === state.activeId ? '*' : '',
    display(p.name) + (p.demo ? ' (demo)' : ''),
    display(p.baseUrl),
    p.keyHint === null ? '-' : `…${display(p.keyHint)}`,
    p.keyStorage,
  ]);
  return table(['', 'NAME', 'BASE URL', 'KEY', 'STORAGE'], rows);
}

/** `cache status` for people; `whose` names the profile or the environment's connection. */
export function cacheStatusText(status: CacheStatus, whose: string, now: Date): string {
  const lastSync =
    status.lastFullSyncAt === null
      ? 'never'
      : `${timeAgo(status.lastFullSyncAt, now)} (${display(status.lastFullSyncAt)})`;
  return (
    `Offline cache of ${whose}:\n` +
    recordText({
      'reports cached': status.reportCount,
      'last full sync': lastSync,
      'file size': `${formatBytes(status.sizeBytes)} (the whole cache file, every profile)`,
    })
  );
}

/** One stderr line per synced page; null where there is nothing worth a line. */
export function syncProgressLine(progress: SyncProgress): string | null {
  if (progress.phase === 'fetching') {
    const of = progress.lastPage === null ? '' : ` of ${progress.lastPage}`;
    const total = progress.total === null ? '' : ` of ${progress.total}`;
    const read = (progress.pass ?? 1) > 1 ? `Read ${progress.pass}, page` : 'Page';
    return `${read} ${progress.page}${of}: ${progress.fetched}${total} reports fetched.\n`;
  }
  if (progress.phase === 'pruning') return 'Removing the cached reports the service no longer has.\n';
  return null;
}

export function syncSummaryText(summary: SyncSummary, whose: string): string {
  const asked = plural(summary.requests, 'request');
  if (summary.mode === 'quick') {
    return `Checked the newest reports of ${whose} (${asked}): ${changesText(summary) || 'nothing new'}. A quick refresh reads only the newest reports; "cache sync" without --quick reads them all.\n`;
  }
  const reports = plural(summary.fetched, 'report');
  const pages = `${plural(summary.pages, 'page')}, ${asked}`;
  const changes = changesText(summary);
  const removed =
    summary.removed === 0
      ? ''
      : ` Removed ${plural(summary.removed, 'cached report')} the service no longer has.`;
  const are = summary.fetched === 1 ? 'is' : 'are';
  const complete = summary.complete
    ? ` The offline copy is complete${summary.passes > 1 ? ` (the list changed while it was read, so it was read ${summary.passes} times)` : ''}.`
    : '';
  return `${reports} of ${whose} ${are} now available offline (${pages}).${changes ? ` ${capitalised(changes)}.` : ''}${removed}${complete}${keptText(summary)}\n`;
}

/** "3 new, 2 changed" (to the offline copy); '' when neither. */
function changesText(summary: SyncSummary): string {
  const parts: string[] = [];
  if (summary.added > 0) parts.push(`${summary.added} new`);
  if (summary.changed > 0) parts.push(`${summary.changed} changed`);
  return parts.join(', ');
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Why nothing was removed from the cache, when the listing could not be trusted. */
function keptText(summary: SyncSummary): string {
  switch (summary.reason) {
    case null:
      return '';
    case 'listing_changed':
      return ` The reports on the service kept changing while they were read (${plural(summary.passes, 'read')}), so the offline copy may be incomplete and no cached report was removed; run the sync again later to settle it.`;
    case 'paging_ignored':
      return ` The Report Service seems to ignore paging (it sent the same reports again for the next page), so the sync stopped after ${plural(summary.pages, 'page')} with ${plural(summary.fetched, 'report')} and no cached report was removed.`;
    case 'page_limit':
      return ` The Report Service kept sending pages past the number of reports it announced, so the sync stopped after ${plural(summary.pages, 'page')} and no cached report was removed.`;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** "Page 2 of 5, 42 reports in all" — says as much as the service told. */
export function pageSummary(page: ReportPage): string {
  const of = page.lastPage === null ? '' : ` of ${page.lastPage}`;
  const total = page.total === null ? '' : `, ${page.total} report${page.total === 1 ? '' : 's'} in all`;
  return `Page ${page.page}${of}${total}.\n`;
}

export function allPagesSummary(count: number, pages: number): string {
  return `${count} report${count === 1 ? '' : 's'} from ${pages} page${pages === 1 ? '' : 's'}.\n`;
}

/** A record as aligned "field: value" lines, the known report fields first. */
export function recordText(record: Record<string, unknown>): string {
  const first = ['id', 'url', 'result', 'privacy', 'generated_at', 'project'];
  const keys = [
    ...first.filter((k) => k in record),
    ...Object.keys(record).filter((k) => !first.includes(k)),
  ];
  if (keys.length === 0) return '(no fields)\n';
  const width = Math.max(...keys.map((k) => k.length));
  return (
    keys
      .map((k) => {
        const value = k === 'privacy' ? privacyText(record[k]) : display(record[k]);
        return `${terminalSafe(k).padEnd(width)}  ${value}`;
      })
      .join('\n') + '\n'
  );
}

/** An error for stderr: the sentence, then one line per field for validation errors. */
export function errorText(error: AppError): string {
  const lines = [terminalSafe(error.message)];
  for (const [field, messages] of Object.entries(error.fieldErrors ?? {})) {
    for (const message of messages) {
      // The sentence above often is the only field's message; do not say it twice.
      if (message !== error.message) lines.push(`  ${terminalSafe(field)}: ${terminalSafe(message)}`);
    }
  }
  return lines.join('\n') + '\n';
}
