/** The list's selection controls: the page's header checkbox and the count with "Clear selection". */
import { useEffect, useRef } from 'react';
import { useWords } from '../lib/i18n';
import type { RowSelection } from '../lib/rowSelection';

/** The header checkbox: selects or clears every row on this page; mixed when some are selected. */
export function PageCheckbox({ selection, disabled }: { selection: RowSelection; disabled: boolean }) {
  const words = useWords();
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = selection.pageSelection === 'some';
  }, [selection.pageSelection]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={words('reports.list.select_page')}
      checked={selection.pageSelection === 'all'}
      disabled={disabled}
      onChange={() => selection.selectPage(selection.pageSelection !== 'all')}
    />
  );
}

/** How many rows are selected, in a live region that is always there so changes are read once. */
export function SelectionBar({ selection }: { selection: RowSelection }) {
  const words = useWords();
  const count = selection.selectedIds.length;
  return (
    <div className={count > 0 ? 'selection-bar' : 'selection-bar empty'}>
      <span role="status">{count > 0 ? words('reports.selection.count', { count }) : ''}</span>
      {count > 0 && (
        <button type="button" className="button small" onClick={selection.clear}>
          {words('reports.selection.clear')}
        </button>
      )}
    </div>
  );
}
