/**
 * What the CLI prints: JSON for scripts (--json), tables and records for people. Text that
 * came from the service is stripped of control characters before it reaches a terminal, so a
 * report URL cannot smuggle escape sequences into the user's console.
 */
import type { AppError } from '../../shared/errors';
import { PRIVACY_LABELS, type PrivacyValue, type Report, type ReportPage } from '../../shared/report';

export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** The `reports list --json` document. */
export function listJson(reports: Report[], page: Pick<ReportPage, 'page' | 'perPage' | 'total'>): string {
  return toJson({
    data: reports,
    page: page.page,
    per_page: page.perPage,
    total: page.total,
    source: 'network',
  });
}

function terminalSafe(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- removing terminal escape sequences on purpose
      .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
      // eslint-disable-next-line no-control-regex -- and any other control character
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
  );
}

function display(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'string') return terminalSafe(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return terminalSafe(JSON.stringify(value) ?? '-');
}

function privacyText(value: unknown): string {
  return typeof value === 'number' && value in PRIVACY_LABELS
    ? PRIVACY_LABELS[value as PrivacyValue]
    : display(value);
}

/** '2025-03-04T10:20:30.000000Z' → '2025-03-04 10:20'; anything else as it came. */
function dateText(value: unknown): string {
  if (typeof value !== 'string') return display(value);
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(value);
  return match ? `${match[1]} ${match[2]}` : display(value);
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
  const widths = header.map((h, col) => Math.max(h.length, ...rows.map((row) => row[col].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, col) => (col === cells.length - 1 ? cell : cell.padEnd(widths[col])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
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
