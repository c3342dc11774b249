/**
 * The app's sentences for "Keep available offline" and "Changes since …" (pure): when the copy
 * was last checked, the counts above the list, what changed in one report, what a quick
 * refresh found.
 */
import type {
  ChangedReport,
  ChangesSummary,
  OfflineState,
  RefreshMinutes,
  SyncSummary,
} from '../../../shared/contract';
import { PRIVACY_LABELS, type PrivacyValue } from '../../../shared/model';
import { ageOf } from './format';

export const INTERVAL_LABELS: { value: RefreshMinutes; label: string }[] = [
  { value: 5, label: 'Every 5 minutes' },
  { value: 15, label: 'Every 15 minutes' },
  { value: 60, label: 'Every hour' },
  { value: null, label: 'Only when I ask' },
];

/** "New reports checked 2 minutes ago · everything checked 5 hours ago". */
export function lastCheckedText(
  state: Pick<OfflineState, 'lastQuickRefreshAt' | 'lastFullSyncAt'>,
  now: number = Date.now(),
): string {
  const { lastQuickRefreshAt: quick, lastFullSyncAt: full } = state;
  if (quick === null && full === null) return 'Not checked yet';
  // A full sync checks the newest reports too.
  const newest = quick === null || (full !== null && full > quick) ? full! : quick;
  const everything =
    full === null ? 'everything not checked yet' : `everything checked ${ageOf(full, now)} ago`;
  return `New reports checked ${ageOf(newest, now)} ago · ${everything}`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "12 new, 3 of them bad · 2 changed, 1 turned bad · 1 removed"; '' when nothing changed. */
export function countsText(counts: ChangesSummary['counts']): string {
  const parts: string[] = [];
  if (counts.added > 0) {
    const bad =
      counts.addedBad === 0 ? '' : counts.added === 1 ? ', bad' : `, ${counts.addedBad} of them bad`;
    parts.push(`${counts.added} new${bad}`);
  }
  if (counts.changed > 0) {
    parts.push(
      `${counts.changed} changed${counts.turnedBad === 0 ? '' : `, ${counts.turnedBad} turned bad`}`,
    );
  }
  if (counts.removed > 0) parts.push(`${counts.removed} removed`);
  return parts.join(' · ');
}

const FIELD_NAMES: Record<string, string> = {
  result: 'result',
  privacy: 'privacy',
  url: 'URL',
  project: 'project',
  generated_at: 'date generated',
};

function valueText(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (field === 'privacy' && typeof value === 'number' && value in PRIVACY_LABELS) {
    return PRIVACY_LABELS[value as PrivacyValue];
  }
  return String(value);
}

/** "Result good → bad; privacy Public → Private" for a changed report; '' for the others. */
export function whatChangedText(change: Pick<ChangedReport, 'kind' | 'fields'>): string {
  if (change.kind !== 'changed') return '';
  return Object.entries(change.fields)
    .map(
      ([field, { before, after }]) =>
        `${FIELD_NAMES[field] ?? field} ${valueText(field, before)} → ${valueText(field, after)}`,
    )
    .join('; ')
    .replace(/^./, (first) => first.toUpperCase());
}

export const KIND_LABELS: Record<ChangedReport['kind'], string> = {
  added: 'New',
  changed: 'Changed',
  removed: 'Removed',
};

/** What a quick refresh the user asked for found, for the live region. */
export function quickRefreshText(summary: Pick<SyncSummary, 'added' | 'changed'>): string {
  if (summary.added === 0 && summary.changed === 0) return 'Checked for new reports: nothing new.';
  const parts = [];
  if (summary.added > 0) parts.push(plural(summary.added, 'new report', 'new reports'));
  if (summary.changed > 0) parts.push(plural(summary.changed, 'changed report', 'changed reports'));
  return `Checked for new reports: ${parts.join(' and ')}.`;
}
