/**
 * Bulk changes on the selected rows: delete, or change privacy. One confirmation naming the
 * count; then the requests go out two at a time (never retried: a write that timed out may
 * have happened), with progress; failures are listed with the service's reason; the list is
 * refreshed once at the end. Off while offline, and the reason is on screen as text.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { AppError } from '../../../shared/errors';
import { errorSentence } from '../../../shared/i18n/errorSentence';
import { reportPasswordProblem, type PrivacyValue } from '../../../shared/model';
import { useToasts, useWriteBlockReason } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { errorText } from '../lib/errorWords';
import { useWords } from '../lib/i18n';
import { invalidateReportLists, queryKeys } from '../lib/queries';
import { TextField } from './FormField';
import { PrivacyChoice } from './PrivacyChoice';
import { Modal } from './Modal';

/** Requests in flight at once: a few, so a long selection is quick without flooding the service. */
const CONCURRENCY = 2;

type BulkKind = 'delete' | 'privacy';

interface BulkOutcome {
  done: string[];
  failed: { id: string; reason: AppError }[];
  /** Not sent: the service became unreachable before their turn. */
  skipped: string[];
}

/**
 * Runs `action` for every id, CONCURRENCY at a time, each once. After a failure that says the
 * service cannot be reached, nothing more is sent: the rest would fail the same way.
 */
export async function runBulk(
  ids: readonly string[],
  action: (id: string) => Promise<unknown>,
  onProgress: (finished: number) => void,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { done: [], failed: [], skipped: [] };
  let next = 0;
  let finished = 0;
  let unreachable = false;
  async function worker() {
    while (next < ids.length) {
      const id = ids[next++];
      if (unreachable) {
        outcome.skipped.push(id);
        continue;
      }
      try {
        await action(id);
        outcome.done.push(id);
      } catch (thrown) {
        const error = errorOf(thrown);
        if (error.kind === 'offline' || error.kind === 'network') unreachable = true;
        outcome.failed.push({ id, reason: error });
      }
      onProgress(++finished);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
  return outcome;
}

const notDone = (outcome: BulkOutcome) => [...outcome.failed.map((f) => f.id), ...outcome.skipped];

export function BulkActions({
  profileId,
  selectedIds,
  onFinished,
}: {
  profileId: string;
  selectedIds: string[];
  /** The run is over: the selection becomes the reports that failed (to try again), or nothing. */
  onFinished: (failedIds: string[]) => void;
}) {
  const words = useWords();
  const blockReason = useWriteBlockReason();
  const reasonId = useId();
  const [kind, setKind] = useState<BulkKind | null>(null);
  if (selectedIds.length === 0) return null;
  // A disabled button's tooltip reaches neither the keyboard nor a screen reader: the reason
  // is on screen beside the buttons, and they point at it.
  const describedBy = blockReason !== null ? reasonId : undefined;
  return (
    <div className="bulk-actions" role="group" aria-label={words('bulk.group')}>
      <button
        type="button"
        className="button small"
        disabled={blockReason !== null}
        aria-describedby={describedBy}
        onClick={() => setKind('privacy')}
      >
        {words('bulk.change_privacy')}
      </button>
      <button
        type="button"
        className="button small danger"
        disabled={blockReason !== null}
        aria-describedby={describedBy}
        onClick={() => setKind('delete')}
      >
        {words('bulk.delete')}
      </button>
      {blockReason && (
        <span id={reasonId} className="muted bulk-block">
          {blockReason}
        </span>
      )}
      {kind && (
        <BulkDialog
          kind={kind}
          profileId={profileId}
          ids={selectedIds}
          onClose={(failedIds) => {
            setKind(null);
            if (failedIds !== null) onFinished(failedIds);
          }}
        />
      )}
    </div>
  );
}

function BulkDialog({
  kind,
  profileId,
  ids,
  onClose,
}: {
  kind: BulkKind;
  profileId: string;
  ids: string[];
  /** null when nothing was sent; else the ids that failed or were not sent. */
  onClose: (failedIds: string[] | null) => void;
}) {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  // The ids are fixed when the dialog opens: a refetch behind it changes nothing.
  const [targets] = useState(ids);
  const [privacy, setPrivacy] = useState<PrivacyValue>(1);
  const [password, setPassword] = useState('');
  const [passwordTouched, setPasswordTouched] = useState(false);
  const [finished, setFinished] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const running = finished !== null && outcome === null;
  const bodyId = useId();
  const closeButton = useRef<HTMLButtonElement>(null);
  // The result replaces the buttons the focus was on: give it to Close.
  useEffect(() => {
    if (outcome) closeButton.current?.focus();
  }, [outcome]);
  const passwordProblem = kind === 'privacy' ? reportPasswordProblem(privacy, password) : null;
  const count = targets.length;
  const idList = words.intl.formatList(targets, { type: 'conjunction' });

  async function run() {
    if (passwordProblem) {
      setPasswordTouched(true);
      return;
    }
    setFinished(0);
    const action =
      kind === 'delete'
        ? (id: string) => call('reports:delete', { id })
        : (id: string) =>
            call('reports:update', {
              id,
              changes: privacy === 2 ? { privacy, password } : { privacy },
            });
    const result = await runBulk(targets, action, setFinished);
    // The list (and what depends on it) is refreshed once, after the last request.
    if (kind === 'delete') {
      for (const id of result.done) client.removeQueries({ queryKey: queryKeys.report(profileId, id) });
    } else {
      for (const id of result.done)
        void client.invalidateQueries({ queryKey: queryKeys.report(profileId, id) });
    }
    invalidateReportLists(client, profileId);
    void client.invalidateQueries({ queryKey: queryKeys.cacheStatus(profileId) });
    setPassword('');
    if (result.failed.length === 0 && result.skipped.length === 0) {
      toasts.show(
        kind === 'delete'
          ? words('bulk.deleted', { count: result.done.length })
          : words('bulk.privacy_changed', { count: result.done.length, privacy }),
      );
      onClose([]);
      return;
    }
    setOutcome(result);
  }

  const title = words(kind === 'delete' ? 'bulk.delete.title' : 'bulk.privacy.title', { count });

  return (
    <Modal
      title={title}
      onClose={() => !running && onClose(outcome === null ? null : notDone(outcome))}
      role={kind === 'delete' ? 'alertdialog' : 'dialog'}
      describedBy={bodyId}
    >
      <div className="modal-body" id={bodyId}>
        {outcome === null ? (
          <>
            {kind === 'delete' ? (
              <p>{words('bulk.delete.body', { count, ids: idList })}</p>
            ) : (
              <>
                <p>{words('bulk.privacy.body', { count, ids: idList })}</p>
                <PrivacyChoice
                  name="bulk-privacy"
                  value={privacy}
                  onChange={setPrivacy}
                  disabled={running}
                  autoFocusChecked
                />
                {privacy === 2 && (
                  <TextField
                    label={words('report.field.password')}
                    type="password"
                    autoComplete="new-password"
                    value={password}
                    onChange={setPassword}
                    onBlur={() => setPasswordTouched(true)}
                    hint={words('bulk.password.hint')}
                    errors={
                      passwordTouched && passwordProblem ? [errorSentence(words, passwordProblem)] : null
                    }
                    disabled={running}
                  />
                )}
              </>
            )}
            {running && (
              <div className="export-progress">
                <progress
                  max={targets.length}
                  value={finished ?? 0}
                  aria-label={words('bulk.progress_label')}
                />
                <p role="status">{words('bulk.progress', { done: finished ?? 0, count })}</p>
              </div>
            )}
          </>
        ) : (
          <div role="alert">
            <p>
              {words(kind === 'delete' ? 'bulk.outcome.deleted' : 'bulk.outcome.changed', {
                done: outcome.done.length,
                count,
              })}
              {outcome.failed.length > 0 &&
                ` ${words('bulk.outcome.failed', { count: outcome.failed.length })}`}
            </p>
            <ul className="bulk-failures">
              {outcome.failed.map((f) => (
                <li key={f.id}>{words('bulk.failure', { id: f.id, reason: errorText(words, f.reason) })}</li>
              ))}
            </ul>
            {outcome.skipped.length > 0 && (
              <p>
                {words('bulk.skipped', {
                  ids: words.intl.formatList(outcome.skipped, { type: 'conjunction' }),
                })}
              </p>
            )}
          </div>
        )}
      </div>
      <div className="modal-actions">
        {outcome === null ? (
          <>
            <button
              type="button"
              className="button"
              onClick={() => onClose(null)}
              disabled={running}
              data-autofocus={kind === 'delete' ? true : undefined}
            >
              {words('dialog.cancel')}
            </button>
            <button
              type="button"
              className={kind === 'delete' ? 'button danger' : 'button primary'}
              onClick={() => void run()}
              disabled={running}
            >
              {running
                ? words('dialog.working')
                : words(kind === 'delete' ? 'bulk.delete.confirm' : 'bulk.privacy.confirm', { count })}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button primary"
            onClick={() => onClose(notDone(outcome))}
            ref={closeButton}
          >
            {words('dialog.close')}
          </button>
        )}
      </div>
    </Modal>
  );
}
