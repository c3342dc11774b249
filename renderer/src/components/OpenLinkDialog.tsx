/**
 * "Open link…": paste a reportdesk:// link someone sent. The core switches to the link's
 * profile (or says which one is missing) and answers the report's route. The same path the OS
 * takes when a link is clicked elsewhere (electron/main → links:open).
 */
import { useState } from 'react';
import { call, errorOf } from '../lib/bridge';
import { navigate } from '../lib/router';
import { TextField } from './FormField';
import { Modal, ModalFormActions } from './Modal';

export function OpenLinkDialog({ onClose }: { onClose: () => void }) {
  const [link, setLink] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function open() {
    setBusy(true);
    try {
      const { path } = await call('links:open', { url: link.trim() });
      onClose();
      navigate(path);
    } catch (thrown) {
      setError(errorOf(thrown).message);
      setBusy(false);
    }
  }

  return (
    <Modal
      title="Open a ReportDesk link"
      onClose={onClose}
      description="ReportDesk switches to the link’s profile and opens the report."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void open();
        }}
        noValidate
      >
        <div className="modal-body">
          <TextField
            label="Link"
            value={link}
            onChange={(value) => {
              setLink(value);
              setError(null);
            }}
            placeholder="reportdesk://report/12?profile=…"
            spellCheck={false}
            hint="A link copied with “Copy link” on a report."
            errors={error ? [error] : null}
            data-autofocus
          />
        </div>
        <ModalFormActions onCancel={onClose} submitLabel={busy ? 'Opening…' : 'Open'} disabled={busy} />
      </form>
    </Modal>
  );
}
