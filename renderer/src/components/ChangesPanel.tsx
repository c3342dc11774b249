/**
 * "Changes since …" above the list: what refreshes and syncs found since the user last marked
 * everything as seen — "12 new, 3 of them bad · 2 changed · 1 removed" —, "Show only these"
 * (the changed reports, each with what changed), "Mark all as seen", and beside it when the
 * copy was last checked with the "Keep available offline" switch. New counts are announced.
 * Nothing is shown before the profile's first full sync unless it keeps its reports offline.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ChangedReport } from '../../../shared/contract';
import { announce } from '../lib/announce';
import { useToasts } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { formatDate } from '../lib/format';
import {
  applySeen,
  offlineKeys,
  useChangesSummary,
  useOfflineEvents,
  useOfflineState,
} from '../lib/offlineQueries';
import { countsText, KIND_LABELS, lastCheckedText, whatChangedText } from '../lib/offlineWords';
import { ResultBadge } from './Badges';

const LIST_ID = 'changes-list';

function ChangedRow({ change }: { change: ChangedReport }) {
  const url = change.report?.url ?? change.fields.url?.before ?? '';
  const result = change.report?.result ?? null;
  return (
    <tr>
      <td>
        <span className={`badge badge-change-${change.kind}`}>{KIND_LABELS[change.kind]}</span>
        {change.bad && <span className="visually-hidden"> (bad)</span>}
      </td>
      <td className="id-cell">
        {change.kind === 'removed' ? (
          change.id
        ) : (
          <a href={`#/reports/${encodeURIComponent(change.id)}`}>{change.id}</a>
        )}
      </td>
      <td className="url-cell" title={String(url)}>
        {String(url)}
      </td>
      <td>
        {change.kind === 'removed' ? <span className="muted">—</span> : <ResultBadge result={result} />}
      </td>
      <td>{whatChangedText(change) || <span className="muted">—</span>}</td>
    </tr>
  );
}

export function ChangesPanel({ profileId }: { profileId: string }) {
  useOfflineEvents(profileId);
  const client = useQueryClient();
  const toasts = useToasts();
  const summary = useChangesSummary(profileId);
  const offline = useOfflineState(profileId);
  const [open, setOpen] = useState(false);

  const counts = summary.data ? countsText(summary.data.counts) : '';
  // New changes while the list is open are said once (not on the first showing).
  const said = useRef<string | null>(null);
  useEffect(() => {
    if (!summary.data) return;
    if (said.current !== null && counts !== said.current && counts !== '') announce(`Changes: ${counts}.`);
    said.current = counts;
  }, [summary.data, counts]);

  const markAll = useMutation({
    mutationFn: () => call('changes:markSeen'),
    onSuccess: (next) => {
      applySeen(client, profileId, next);
      said.current = '';
      setOpen(false);
      announce('All changes are marked as seen.');
    },
    onError: (thrown) => toasts.show(errorOf(thrown).message, 'error'),
  });
  const keep = useMutation({
    mutationFn: (keepOffline: boolean) => call('offline:set', { profileId, keepOffline }),
    onSuccess: (next) => {
      client.setQueryData(offlineKeys.state(profileId), next);
      announce(next.keepOffline ? 'Keep available offline is on.' : 'Keep available offline is off.');
    },
    onError: (thrown) => toasts.show(errorOf(thrown).message, 'error'),
  });

  const data = summary.data;
  const state = offline.data;
  if (!data || !state || (data.since === null && !state.keepOffline)) return null;
  const since = data.since === null ? null : formatDate(data.since);
  return (
    <section
      className={`card changes${counts === '' ? ' changes-quiet' : ''}`}
      aria-labelledby="changes-title"
    >
      <div className="changes-header">
        <h2 id="changes-title" className="section-title">
          {since ? (
            <>
              Changes since{' '}
              <time dateTime={data.since ?? undefined} title={since.exact}>
                {since.text}
              </time>
            </>
          ) : (
            'Changes'
          )}
        </h2>
        <p className="changes-counts">{counts === '' ? 'Nothing new.' : counts}</p>
        {counts !== '' && (
          <>
            <button
              type="button"
              className="button small"
              aria-expanded={open}
              aria-controls={LIST_ID}
              onClick={() => setOpen(!open)}
            >
              {open ? 'Hide changed reports' : 'Show only these'}
            </button>
            <button
              type="button"
              className="button small"
              disabled={markAll.isPending}
              onClick={() => markAll.mutate()}
            >
              Mark all as seen
            </button>
          </>
        )}
        <span className="changes-checked muted">{lastCheckedText(state)}</span>
        <label className="check-row">
          <input
            type="checkbox"
            checked={state.keepOffline}
            disabled={keep.isPending}
            onChange={(e) => keep.mutate(e.target.checked)}
          />
          Keep available offline
        </label>
      </div>
      <div className="changes-wrap" id={LIST_ID} hidden={!open || counts === ''}>
        {open && counts !== '' && (
          <>
            <table className="changes-table" aria-label="Changed reports">
              <thead>
                <tr>
                  <th scope="col">Change</th>
                  <th scope="col">ID</th>
                  <th scope="col">URL</th>
                  <th scope="col">Result</th>
                  <th scope="col">What changed</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((change) => (
                  <ChangedRow key={change.id} change={change} />
                ))}
              </tbody>
            </table>
            {data.more > 0 && <p className="muted">And {data.more} more, older ones.</p>}
          </>
        )}
      </div>
    </section>
  );
}
