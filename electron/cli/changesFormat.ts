/**
 * `cache changes` for people: one line per change found in the offline copy, newest first, each
 * watched field as "before → after"; and `--since` read as a time or an age (30m, 12h, 7d).
 */
import type { ReportChange } from '../../shared/contract';
import { UsageError } from './args';
import { dateText, display, privacyText, table } from './format';

const AGE_UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** --since: an ISO 8601 date or date and time, or an age back from now ("30m", "12h", "7d"). */
export function parseSince(value: string, now: Date): string {
  const age = /^(\d{1,6})([mhd])$/.exec(value.trim());
  if (age) return new Date(now.getTime() - Number(age[1]) * AGE_UNITS_MS[age[2]]).toISOString();
  const time = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new UsageError(
      `--since ${display(value)} is not a time: give a date and time (2026-11-23 or 2026-11-23T09:00:00Z) or an age (30m, 12h, 7d).`,
      ['cache', 'changes'],
    );
  }
  return new Date(time).toISOString();
}

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
