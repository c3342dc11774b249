/**
 * "Open link…": paste a reportdesk:// link someone sent. The core switches to the link's
 * profile (or says which one is missing) and answers the report's route. The same path the OS
 * takes when a link is clicked elsewhere (electron/main → links:open).
 */
import { useState } from 'react';
import type { AppError } from '../../../shared/errors';
import { call, errorOf } from '../lib/bridge';
import { errorText } from '../lib/errorWords';
import { useWords } from '../lib/i18n';
import { navigate } from '../lib/router';
import { TextField } from './FormField';
import { Modal, ModalFormActions } from './Modal';

export function OpenLinkDialog({ onClose }: { onClose: () => void }) {
  const words = useWords();
  const [link, setLink] = useState('');
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);

  async function open() {
    setBusy(true);
    try {
      const { path } = await call('links:open', { url: link.trim() });
      onClose();
      navigate(path);
    } catch (thrown) {
      setError(errorOf(thrown));
      setBusy(false);
    }
  }

  return (
    <Modal title={words('open_link.title')} onClose={onClose} description={words('open_link.description')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void open();
        }}
        noValidate
      >
        <div className="modal-body">
          <TextField
            label={words('open_link.field')}
            value={link}
            onChange={(value) => {
              setLink(value);
              setError(null);
            }}
            placeholder={words('open_link.placeholder')}
            dir="ltr"
            spellCheck={false}
            hint={words('open_link.hint')}
            errors={error ? [errorText(words, error)] : null}
            data-autofocus
          />
        </div>
        <ModalFormActions
          onCancel={onClose}
          submitLabel={words(busy ? 'open_link.opening' : 'open_link.open')}
          disabled={busy}
        />
      </form>
    </Modal>
  );
}
