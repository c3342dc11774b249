/**
 * `cache changes` for people: one line per change found in the offline copy, newest first, each
 * watched field as "before → after" (its `--since` is read by ./timeArgument).
 */
import type { ReportChange } from '../../shared/contract';
import { dateText, display, privacyText, table } from './format';

function valueText(field: string, value: unknown): string {
  return field === 'privacy' ? privacyText(value) : display(value);
}

/** "result good → bad, privacy Public → Private"; a new or removed report: its result and URL. */
function whatChanged(change: ReportChange): string {
  const fields = Object.entries(change.fields);
  if (change.kind !== 'changed') {
    const side = change.kind === 'added' ? 'after' : 'before';
    return ['result', 'url']
      .filter((field) => change.fields[field] !== undefined)
      .map((field) => valueText(field, change.fields[field][side]))
      .join('  ');
  }
  return fields
    .map(([field, { before, after }]) => `${field} ${valueText(field, before)} → ${valueText(field, after)}`)
    .join(', ');
}

export function changesText(
  changes: readonly ReportChange[],
  whose: string,
  since: string | undefined,
): string {
  const after = since === undefined ? '' : ` since ${dateText(since)} UTC`;
  if (changes.length === 0) {
    return `No changes recorded for ${whose}${after}. Changes are recorded from the first full sync (report-desk cache sync) on.\n`;
  }
  const rows = changes.map((change) => [
    dateText(change.at),
    change.kind,
    display(change.id),
    whatChanged(change),
  ]);
  return `Changes found in the offline copy of ${whose}${after}, newest first (times in UTC):\n${table(['FOUND', 'KIND', 'ID', 'WHAT'], rows)}`;
}
