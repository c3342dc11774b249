/** The keyboard shortcuts, as a dialog: `?` anywhere outside a text field, or Help. */
import { Fragment } from 'react';
import { directionOf } from '../../../shared/i18n/languages';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import { arrowSign } from '../lib/arrowKeys';
import { useWords, type RendererWords } from '../lib/i18n';
import { Modal } from './Modal';

/**
 * A key: its name in the catalogue (Ctrl is “Strg” on a German keyboard), the key's own sign, or
 * the arrow that goes forward or back in reading order (→ or ←, mirrored right to left).
 */
type Key = { name: MessageId } | { sign: string } | { reading: 1 | -1 };
const key = (name: MessageId): Key => ({ name });
const sign = (text: string): Key => ({ sign: text });
const reading = (step: 1 | -1): Key => ({ reading: step });

/** Keys and what they do; the README lists the same. */
export const SHORTCUTS: { area: MessageId; keys: { keys: Key[][]; does: MessageId }[] }[] = [
  {
    area: 'shortcuts.area.anywhere',
    keys: [
      { keys: [[key('keys.ctrl'), sign('F')]], does: 'shortcuts.search' },
      { keys: [[key('keys.ctrl'), sign('N')]], does: 'shortcuts.new_report' },
      { keys: [[key('keys.ctrl'), sign('R')]], does: 'shortcuts.refresh' },
      { keys: [[key('keys.ctrl'), key('keys.shift'), sign('H')]], does: 'shortcuts.history' },
      { keys: [[sign('?')]], does: 'shortcuts.show' },
      { keys: [[key('keys.esc')]], does: 'shortcuts.close_dialog' },
    ],
  },
  {
    area: 'shortcuts.area.reports_list',
    keys: [
      { keys: [[sign('↓')], [sign('j')]], does: 'shortcuts.next_report' },
      { keys: [[sign('↑')], [sign('k')]], does: 'shortcuts.previous_report' },
      { keys: [[key('keys.home')], [key('keys.end')]], does: 'shortcuts.first_last_report' },
      { keys: [[key('keys.enter')]], does: 'shortcuts.open_report' },
      { keys: [[key('keys.space')]], does: 'shortcuts.select_report' },
      { keys: [[key('keys.shift'), key('keys.space')]], does: 'shortcuts.select_range' },
      { keys: [[reading(1)]], does: 'shortcuts.next_page' },
      { keys: [[reading(-1)]], does: 'shortcuts.previous_page' },
    ],
  },
  {
    area: 'shortcuts.area.history_chart',
    keys: [
      { keys: [[reading(1)], [reading(-1)]], does: 'shortcuts.history_period' },
      { keys: [[key('keys.home')], [key('keys.end')]], does: 'shortcuts.history_first_last' },
      { keys: [[key('keys.enter')]], does: 'shortcuts.history_urls' },
    ],
  },
];

function keyText(words: RendererWords, k: Key): string {
  if ('name' in k) return words(k.name);
  if ('reading' in k) return arrowSign(k.reading, directionOf(words.language));
  return k.sign;
}

function KeyCombo({ combo }: { combo: Key[] }) {
  const words = useWords();
  return (
    // Ctrl+F reads left to right in every language, as printed on the keys.
    <span className="key-combo" dir="ltr">
      {combo.map((k, i) => (
        <Fragment key={keyText(words, k)}>
          {i > 0 && '+'}
          <kbd>{keyText(words, k)}</kbd>
        </Fragment>
      ))}
    </span>
  );
}

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const words = useWords();
  return (
    <Modal title={words('shortcuts.title')} onClose={onClose} description={words('shortcuts.description')}>
      {SHORTCUTS.map((group) => (
        <section key={group.area} className="shortcut-group" aria-label={words(group.area)}>
          <h3>{words(group.area)}</h3>
          <dl className="shortcuts">
            {group.keys.map((shortcut) => (
              <div key={shortcut.does}>
                <dt>
                  {shortcut.keys.map((combo, i) => (
                    <Fragment key={i}>
                      {i > 0 && words('shortcuts.or')}
                      <KeyCombo combo={combo} />
                    </Fragment>
                  ))}
                </dt>
                <dd>{words(shortcut.does)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <div className="modal-actions">
        <button type="button" className="button" onClick={onClose} data-autofocus>
          {words('dialog.close')}
        </button>
      </div>
    </Modal>
  );
}
