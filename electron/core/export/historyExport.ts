/**
 * History as a file (issue 27): the chart's numbers (one row per period) and a compare's changes
 * (one row per URL), as CSV (the exporter's RFC 4180 rules, csvTable) or JSON (the values as the
 * answer gives them, with where they came from). Saved like every export (gateway/exportService).
 */
import type { HistoryCompare, HistoryPeriods } from '../../../shared/contract';
import { csvTable, type ExportFormat } from './exporter';

const PERIOD_COLUMNS = [
  'start',
  'end',
  'urls_good',
  'urls_decent',
  'urls_bad',
  'generated_good',
  'generated_decent',
  'generated_bad',
];
const CHANGE_COLUMNS = ['url', 'before', 'after', 'before_id', 'after_id'];

/** What every history file says about itself. */
function about(answer: HistoryPeriods | HistoryCompare, exportedAt: string) {
  return {
    exported_at: exportedAt,
    source: 'cache',
    fetched_at: answer.lastFullSyncAt,
    time_zone: answer.timeZone,
    project: answer.project,
  };
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

export function periodsFile(format: ExportFormat, answer: HistoryPeriods, exportedAt: string): string {
  if (format === 'json') {
    return json({ ...about(answer, exportedAt), by: answer.by, periods: answer.periods });
  }
  return csvTable(
    PERIOD_COLUMNS,
    answer.periods.map(({ start, end, urls, generated }) => [
      start,
      end,
      urls.good,
      urls.decent,
      urls.bad,
      generated.good,
      generated.decent,
      generated.bad,
    ]),
  );
}

export function compareFile(format: ExportFormat, answer: HistoryCompare, exportedAt: string): string {
  if (format === 'json') {
    return json({ ...about(answer, exportedAt), from: answer.from, to: answer.to, changes: answer.changes });
  }
  return csvTable(
    CHANGE_COLUMNS,
    answer.changes.map((change) => [
      change.url,
      change.before,
      change.after,
      change.beforeId,
      change.afterId,
    ]),
  );
}
