/**
 * "Changes since …" from the change log's unseen entries (pure, no database): per report, what
 * it came to — new, changed or removed, with each watched field from its first "before" to
 * its last "after" — and the counts above the list ("12 new, 3 of them bad · 2 changed ·
 * 1 removed"). A report that came and went, or changed and changed back, is no news.
 */
import type { ChangeFields, ChangeKind, ChangesSummary, ReportChange } from '../../../shared/contract';
import { isBadNews, same } from './reportDiff';

export interface NetChange {
  id: string;
  kind: ChangeKind;
  /** When its latest change was found. */
  at: string;
  fields: ChangeFields;
  /** A new report that is bad, or one whose result turned bad. */
  bad: boolean;
}

/** The counts above the list ("12 new, 3 of them bad · 2 changed · 1 removed"). */
export type ChangeCounts = ChangesSummary['counts'];

/** Each report's changes merged into one, newest first; `entries` may come in any order by seq. */
export function netChanges(entries: readonly (ReportChange & { seq: number })[]): NetChange[] {
  const byReport = new Map<string, (ReportChange & { seq: number })[]>();
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    const list = byReport.get(entry.id);
    if (list) list.push(entry);
    else byReport.set(entry.id, [entry]);
  }
  const net: (NetChange & { seq: number })[] = [];
  for (const [id, list] of byReport) {
    const first = list[0];
    const last = list[list.length - 1];
    const kind: ChangeKind | null =
      first.kind === 'added'
        ? last.kind === 'removed'
          ? null
          : 'added'
        : last.kind === 'removed'
          ? 'removed'
          : 'changed';
    if (kind === null) continue;
    const fields = mergedFields(list);
    if (kind === 'changed' && Object.keys(fields).length === 0) continue;
    net.push({ id, kind, at: last.at, fields, bad: isBadNews(kind, fields), seq: last.seq });
  }
  return net.sort((a, b) => b.seq - a.seq).map(({ seq: _seq, ...change }) => change);
}

/** Each field from its first "before" to its last "after"; fields that ended as they began drop out. */
function mergedFields(list: readonly ReportChange[]): ChangeFields {
  const merged: ChangeFields = {};
  for (const entry of list) {
    for (const [field, change] of Object.entries(entry.fields)) {
      const seen = merged[field];
      merged[field] = { before: seen ? seen.before : change.before, after: change.after };
    }
  }
  for (const [field, change] of Object.entries(merged)) {
    if (same(change.before, change.after)) delete merged[field];
  }
  return merged;
}

export function countChanges(net: readonly NetChange[]): ChangeCounts {
  const counts: ChangeCounts = { added: 0, addedBad: 0, changed: 0, turnedBad: 0, removed: 0 };
  for (const change of net) {
    counts[change.kind] += 1;
    if (change.bad) counts[change.kind === 'added' ? 'addedBad' : 'turnedBad'] += 1;
  }
  return counts;
}
