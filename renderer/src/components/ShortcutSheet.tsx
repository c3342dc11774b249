/** The keyboard shortcuts, as a dialog: `?` anywhere outside a text field, or Help. */
import { Fragment } from 'react';
import { Modal } from './Modal';

/** Keys and what they do; the README lists the same. */
export const SHORTCUTS: { area: string; keys: { keys: string[][]; does: string }[] }[] = [
  {
    area: 'Anywhere',
    keys: [
      { keys: [['Ctrl', 'F']], does: 'Search the reports' },
      { keys: [['Ctrl', 'N']], does: 'New report' },
      { keys: [['Ctrl', 'R']], does: 'Refresh what is on screen' },
      { keys: [['?']], does: 'Show these shortcuts' },
      { keys: [['Esc']], does: 'Close a dialog' },
    ],
  },
  {
    area: 'Reports list',
    keys: [
      { keys: [['↓'], ['j']], does: 'Next report' },
      { keys: [['↑'], ['k']], does: 'Previous report' },
      { keys: [['Home'], ['End']], does: 'First or last report on the page' },
      { keys: [['Enter']], does: 'Open the report' },
      { keys: [['Space']], does: 'Select or unselect the report' },
      { keys: [['Shift', 'Space']], does: 'Select the reports from the last one picked to this one' },
    ],
  },
];

function KeyCombo({ combo }: { combo: string[] }) {
  return (
    <span className="key-combo">
      {combo.map((key, i) => (
        <Fragment key={key}>
          {i > 0 && '+'}
          <kbd>{key}</kbd>
        </Fragment>
      ))}
    </span>
  );
}

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  return (
    <Modal
      title="Keyboard shortcuts"
      onClose={onClose}
      description="Every action also works with Tab, Enter and Space. On macOS use Cmd for Ctrl."
    >
      {SHORTCUTS.map((group) => (
        <section key={group.area} className="shortcut-group" aria-label={group.area}>
          <h3>{group.area}</h3>
          <dl className="shortcuts">
            {group.keys.map((shortcut) => (
              <div key={shortcut.does}>
                <dt>
                  {shortcut.keys.map((combo, i) => (
                    <Fragment key={combo.join('+')}>
                      {i > 0 && ' or '}
                      <KeyCombo combo={combo} />
                    </Fragment>
                  ))}
                </dt>
                <dd>{shortcut.does}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <div className="modal-actions">
        <button type="button" className="button" onClick={onClose} data-autofocus>
          Close
        </button>
      </div>
    </Modal>
  );
}
