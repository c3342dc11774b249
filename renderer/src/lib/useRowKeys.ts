import { useEffect, useRef, type RefObject } from 'react';
import { rowKeyAction, type RowSelection } from './rowSelection';

const EDITABLE = 'input, select, textarea, [contenteditable="true"], [contenteditable=""]';

/**
 * The list's keys. On a row: ↑/↓, j/k, Home/End move the row focus, Enter opens the focused
 * report, Space (Shift+Space for a range) selects it. Elsewhere on the screen, outside form
 * fields and dialogs, j/k and ↑/↓ bring the focus into the rows.
 */
export function useRowKeys(
  selection: RowSelection,
  tableBody: RefObject<HTMLTableSectionElement | null>,
  open: (id: string) => void,
) {
  const latest = useRef({ selection, open });
  useEffect(() => {
    latest.current = { selection, open };
  });

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented) return;
      const action = rowKeyAction(event);
      const body = tableBody.current;
      if (!action || !body) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('[role="dialog"], [role="alertdialog"], dialog')) return;
      const rowElements = [...body.querySelectorAll<HTMLElement>('tr[data-row-index]')];
      if (rowElements.length === 0) return;
      const { selection: rows, open: openRow } = latest.current;
      const onRow = target !== null && rowElements.includes(target as HTMLElement);
      const moving = action !== 'open' && action !== 'toggle' && action !== 'toggle-range';
      if (!onRow) {
        // Off the rows only ↑/↓ and j/k, and never while typing or choosing in a field.
        if (action !== 'next' && action !== 'previous') return;
        if (target?.closest(EDITABLE) && !body.contains(target)) return;
        if (!event.key.match(/^[jk]$/) && target?.closest('button, a[href], summary')) return;
      }
      event.preventDefault();
      if (moving) {
        const from = onRow ? rowElements.indexOf(target as HTMLElement) : -1;
        const delta = action === 'next' ? 1 : action === 'previous' ? -1 : 0;
        let index =
          from < 0 ? Math.max(rows.focus, 0) : Math.min(rowElements.length - 1, Math.max(0, from + delta));
        if (action === 'first') index = 0;
        if (action === 'last') index = rowElements.length - 1;
        rows.setFocus(index);
        rowElements[index]?.focus();
      } else if (rows.focusedId !== null) {
        if (action === 'open') openRow(rows.focusedId);
        else rows.toggle(rows.focusedId, action === 'toggle-range');
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [tableBody]);
}
