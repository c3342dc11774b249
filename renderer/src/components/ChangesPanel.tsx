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
import { errorText } from '../lib/errorWords';
import { formatDate } from '../lib/format';
import { useWords } from '../lib/i18n';
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
  const words = useWords();
  const url = change.report?.url ?? change.fields.url?.before ?? '';
  const result = change.report?.result ?? null;
  return (
    <tr>
      <td>
        <span className={`badge badge-change-${change.kind}`}>{words(KIND_LABELS[change.kind])}</span>
        {change.bad && <span className="visually-hidden">{words('changes.bad_hidden')}</span>}
      </td>
      <td className="id-cell">
        {change.kind === 'removed' ? (
          change.id
        ) : (
          <a href={`#/reports/${encodeURIComponent(change.id)}`}>{change.id}</a>
        )}
      </td>
      <td className="url-cell" dir="ltr" title={String(url)}>
        {String(url)}
      </td>
      <td>
        {change.kind === 'removed' ? <span className="muted">—</span> : <ResultBadge result={result} />}
      </td>
      <td>{whatChangedText(words, change) || <span className="muted">—</span>}</td>
    </tr>
  );
}

export function ChangesPanel({ profileId }: { profileId: string }) {
  const words = useWords();
  useOfflineEvents(profileId);
  const client = useQueryClient();
  const toasts = useToasts();
  const summary = useChangesSummary(profileId);
  const offline = useOfflineState(profileId);
  const [open, setOpen] = useState(false);

  const counts = summary.data ? countsText(words, summary.data.counts) : '';
  // New changes while the list is open are said once (not on the first showing, nor when only
  // the language changed: the counts are compared, not their words).
  const said = useRef<string | null>(null);
  const countsKey = summary.data ? JSON.stringify(summary.data.counts) : null;
  const announcement = words('changes.announce', { counts });
  useEffect(() => {
    if (countsKey === null) return;
    if (said.current !== null && countsKey !== said.current && counts !== '') announce(announcement);
    said.current = countsKey;
  }, [countsKey, counts, announcement]);

  const markAll = useMutation({
    mutationFn: () => call('changes:markSeen'),
    onSuccess: (next) => {
      applySeen(client, profileId, next);
      said.current = JSON.stringify(next.counts);
      setOpen(false);
      announce(words('changes.marked_seen'));
    },
    onError: (thrown) => toasts.show(errorText(words, errorOf(thrown)), 'error'),
  });
  const keep = useMutation({
    mutationFn: (keepOffline: boolean) => call('offline:set', { profileId, keepOffline }),
    onSuccess: (next) => {
      client.setQueryData(offlineKeys.state(profileId), next);
      announce(words(next.keepOffline ? 'keep_offline.announce_on' : 'keep_offline.announce_off'));
    },
    onError: (thrown) => toasts.show(errorText(words, errorOf(thrown)), 'error'),
  });

  const data = summary.data;
  const state = offline.data;
  if (!data || !state || (data.since === null && !state.keepOffline)) return null;
  const since = data.since === null ? null : formatDate(words, data.since);
  return (
    <section
      className={`card changes${counts === '' ? ' changes-quiet' : ''}`}
      aria-labelledby="changes-title"
    >
      <div className="changes-header">
        <h2 id="changes-title" className="section-title">
          {since
            ? words.rich('changes.since', {
                date: (
                  <time dateTime={data.since ?? undefined} title={since.exact}>
                    {since.text}
                  </time>
                ),
              })
            : words('changes.heading')}
        </h2>
        <p className="changes-counts">{counts === '' ? words('changes.nothing_new') : counts}</p>
        {counts !== '' && (
          <>
            <button
              type="button"
              className="button small"
              aria-expanded={open}
              aria-controls={LIST_ID}
              onClick={() => setOpen(!open)}
            >
              {words(open ? 'changes.hide_list' : 'changes.show_list')}
            </button>
            <button
              type="button"
              className="button small"
              disabled={markAll.isPending}
              onClick={() => markAll.mutate()}
            >
              {words('changes.mark_all_seen')}
            </button>
          </>
        )}
        <span className="changes-checked muted">{lastCheckedText(words, state)}</span>
        <label className="check-row">
          <input
            type="checkbox"
            checked={state.keepOffline}
            disabled={keep.isPending}
            onChange={(e) => keep.mutate(e.target.checked)}
          />
          {words('keep_offline.heading')}
        </label>
      </div>
      <div className="changes-wrap" id={LIST_ID} hidden={!open || counts === ''}>
        {open && counts !== '' && (
          <>
            <table className="changes-table" aria-label={words('changes.table')}>
              <thead>
                <tr>
                  <th scope="col">{words('changes.column.change')}</th>
                  <th scope="col">{words('report.field.id')}</th>
                  <th scope="col">{words('report.field.url')}</th>
                  <th scope="col">{words('report.field.result')}</th>
                  <th scope="col">{words('changes.column.what_changed')}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((change) => (
                  <ChangedRow key={change.id} change={change} />
                ))}
              </tbody>
            </table>
            {data.more > 0 && <p className="muted">{words('changes.more', { count: data.more })}</p>}
          </>
        )}
      </div>
    </section>
  );
}
