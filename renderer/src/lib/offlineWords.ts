/**
 * The app's sentences for "Keep available offline" and "Changes since …" (pure, from the
 * catalogue): when the copy was last checked, the counts above the list, what changed in one
 * report, what a quick refresh found.
 */
import type {
  ChangedReport,
  ChangesSummary,
  OfflineState,
  RefreshMinutes,
  SyncSummary,
} from '../../../shared/contract';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import { PRIVACY_VALUES, type PrivacyValue } from '../../../shared/model';
import { timeAgo } from './format';
import type { RendererWords } from './i18n';
import { privacyLabel } from './reportWords';

export const INTERVAL_LABELS: { value: RefreshMinutes; label: MessageId }[] = [
  { value: 5, label: 'offline.interval.5' },
  { value: 15, label: 'offline.interval.15' },
  { value: 60, label: 'offline.interval.60' },
  { value: null, label: 'offline.interval.manual' },
];

/** "New reports checked 2 minutes ago · everything checked 5 hours ago". */
export function lastCheckedText(
  words: RendererWords,
  state: Pick<OfflineState, 'lastQuickRefreshAt' | 'lastFullSyncAt'>,
  now: number = Date.now(),
): string {
  const { lastQuickRefreshAt: quick, lastFullSyncAt: full } = state;
  if (quick === null && full === null) return words('offline.checked.never');
  // A full sync checks the newest reports too.
  const newest = timeAgo(words, quick === null || (full !== null && full > quick) ? full! : quick, now);
  return full === null
    ? words('offline.checked.newest_only', { newest })
    : words('offline.checked.both', { newest, everything: timeAgo(words, full, now) });
}

/** "12 new, 3 of them bad · 2 changed, 1 turned bad · 1 removed"; '' when nothing changed. */
export function countsText(words: RendererWords, counts: ChangesSummary['counts']): string {
  const parts: string[] = [];
  if (counts.added > 0) {
    parts.push(
      counts.addedBad === 0
        ? words('changes.counts.new', { count: counts.added })
        : words('changes.counts.new_bad', { count: counts.added, bad: counts.addedBad }),
    );
  }
  if (counts.changed > 0) {
    parts.push(
      counts.turnedBad === 0
        ? words('changes.counts.changed', { count: counts.changed })
        : words('changes.counts.changed_bad', { count: counts.changed, bad: counts.turnedBad }),
    );
  }
  if (counts.removed > 0) parts.push(words('changes.counts.removed', { count: counts.removed }));
  return parts.length === 0
    ? ''
    : parts.reduce((first, next) => words('changes.counts.join', { first, next }));
}

function valueText(words: RendererWords, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return words('changes.value.none');
  if (field === 'privacy' && (PRIVACY_VALUES as readonly unknown[]).includes(value)) {
    return privacyLabel(words, value as PrivacyValue);
  }
  if (field === 'result' && typeof value === 'string')
    return words('changes.value.result', { result: value });
  return String(value);
}

const FIELDS = new Set(['result', 'privacy', 'url', 'project', 'generated_at']);

/** "Result good → bad; privacy Public → Private" for a changed report; '' for the others. */
export function whatChangedText(
  words: RendererWords,
  change: Pick<ChangedReport, 'kind' | 'fields'>,
): string {
  if (change.kind !== 'changed') return '';
  const parts = Object.entries(change.fields).map(([field, { before, after }]) =>
    words('changes.what_changed.field', {
      field: FIELDS.has(field) ? field : 'other',
      name: field,
      before: valueText(words, field, before),
      after: valueText(words, field, after),
    }),
  );
  if (parts.length === 0) return '';
  const text = parts.reduce((first, next) => words('changes.what_changed.join', { first, next }));
  // A sentence starts with a capital where the script has them.
  return text.charAt(0).toLocaleUpperCase(words.language) + text.slice(1);
}

export const KIND_LABELS: Record<ChangedReport['kind'], MessageId> = {
  added: 'changes.kind.added',
  changed: 'changes.kind.changed',
  removed: 'changes.kind.removed',
};

/** What a quick refresh the user asked for found, for the live region. */
export function quickRefreshText(
  words: RendererWords,
  summary: Pick<SyncSummary, 'added' | 'changed'>,
): string {
  const { added, changed } = summary;
  if (added === 0 && changed === 0) return words('offline.quick_refresh.nothing');
  if (changed === 0) return words('offline.quick_refresh.added', { added });
  if (added === 0) return words('offline.quick_refresh.changed', { changed });
  return words('offline.quick_refresh.both', { added, changed });
}
