/**
 * The quiet bar under the header when an update is downloaded and verified: "ReportDesk
 * <version> is ready — Restart to update". It never restarts by itself; a restart asked for
 * while a sync, an export or changes run waits for them (or cancels the sync and the export
 * when asked). Deb and rpm installs ask for the administrator's password: that is said first.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { UpdateStatus } from '../../../shared/contract';
import { call, errorOf } from '../lib/bridge';
import { useToasts } from '../lib/appState';
import { errorText } from '../lib/errorWords';
import { useWords } from '../lib/i18n';
import { UPDATES_KEY, updateBarShows, useUpdateStatus } from '../lib/updates';
import { waitingSentence } from '../lib/updateWords';
import { Modal } from './Modal';

export function UpdateReadyBar() {
  const words = useWords();
  const { data } = useUpdateStatus();
  const client = useQueryClient();
  const toasts = useToasts();
  const [laterFor, setLaterFor] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const version = data?.update?.version;
  if (!data || !version || !updateBarShows(data)) return null;
  const waiting = data.restartWaitingFor;
  if (laterFor === version && !waiting && data.phase === 'ready') return null;

  async function run(action: () => Promise<UpdateStatus>) {
    setBusy(true);
    try {
      client.setQueryData(UPDATES_KEY, await action());
    } catch (thrown) {
      toasts.show(errorText(words, errorOf(thrown)), 'error');
    } finally {
      setBusy(false);
    }
  }
  const restart = (cancelWork = false) => run(() => call('updates:restart', { cancelWork }));
  const cancellable = waiting?.some((work) => work === 'sync' || work === 'export') ?? false;

  return (
    <div className="banner banner-update" role="status">
      <div>
        <strong>{words('update_bar.ready', { version })}</strong>
        {data.phase === 'installing' ? (
          <span>{words('update_bar.detail', { text: words('update_bar.restarting') })}</span>
        ) : waiting ? (
          <span>{words('update_bar.detail', { text: waitingSentence(words, waiting) })}</span>
        ) : (
          <span className="banner-detail">
            {words('update_bar.detail', {
              text: words(data.install === 'asks-admin' ? 'update_bar.asks_admin' : 'update_bar.on_quit'),
            })}
          </span>
        )}
      </div>
      {data.phase === 'ready' && (
        <div className="banner-actions">
          {waiting ? (
            <>
              {cancellable && (
                <button
                  type="button"
                  className="button small"
                  disabled={busy}
                  onClick={() => void restart(true)}
                >
                  {words('update_bar.cancel_and_restart')}
                </button>
              )}
              <button
                type="button"
                className="button small"
                disabled={busy}
                onClick={() => void run(() => call('updates:cancelRestart'))}
              >
                {words('update_bar.dont_restart')}
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className="button small primary"
                disabled={busy}
                onClick={() => (data.install === 'asks-admin' ? setConfirming(true) : void restart())}
              >
                {words('update_bar.restart')}
              </button>
              <button type="button" className="button small" onClick={() => setLaterFor(version)}>
                {words('update_bar.later')}
              </button>
            </>
          )}
        </div>
      )}
      {confirming && (
        <Modal
          title={words('update_install.title', { version })}
          onClose={() => setConfirming(false)}
          description={words('update_install.description')}
        >
          <div className="modal-actions">
            <button type="button" className="button" onClick={() => setConfirming(false)} data-autofocus>
              {words('dialog.cancel')}
            </button>
            <button
              type="button"
              className="button primary"
              onClick={() => {
                setConfirming(false);
                void restart();
              }}
            >
              {words('update_install.confirm')}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
