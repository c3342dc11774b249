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
import { UPDATES_KEY, updateBarShows, useUpdateStatus } from '../lib/updates';
import { waitingSentence } from '../lib/updateWords';
import { Modal } from './Modal';

export function UpdateReadyBar() {
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
      toasts.show(errorOf(thrown).message, 'error');
    } finally {
      setBusy(false);
    }
  }
  const restart = (cancelWork = false) => run(() => call('updates:restart', { cancelWork }));
  const cancellable = waiting?.some((work) => work === 'sync' || work === 'export') ?? false;

  return (
    <div className="banner banner-update" role="status">
      <div>
        <strong>ReportDesk {version} is ready</strong>
        {data.phase === 'installing' ? (
          <span> — restarting…</span>
        ) : waiting ? (
          <span> — {waitingSentence(waiting)}</span>
        ) : (
          <span className="banner-detail">
            {data.install === 'asks-admin'
              ? ' — installing it asks for your administrator password.'
              : ' — restart to update now, or it is installed when you quit ReportDesk.'}
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
                  Cancel it and restart
                </button>
              )}
              <button
                type="button"
                className="button small"
                disabled={busy}
                onClick={() => void run(() => call('updates:cancelRestart'))}
              >
                Don’t restart
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
                Restart to update
              </button>
              <button type="button" className="button small" onClick={() => setLaterFor(version)}>
                Later
              </button>
            </>
          )}
        </div>
      )}
      {confirming && (
        <Modal
          title={`Install ReportDesk ${version}?`}
          onClose={() => setConfirming(false)}
          description="Your system’s package manager installs the update and asks for your administrator password. ReportDesk then restarts."
        >
          <div className="modal-actions">
            <button type="button" className="button" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </button>
            <button
              type="button"
              className="button primary"
              onClick={() => {
                setConfirming(false);
                void restart();
              }}
            >
              Install and restart
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
