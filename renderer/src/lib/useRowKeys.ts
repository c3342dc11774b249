import { useEffect, useRef, type RefObject } from 'react';
import { layoutDirection, type ReadingStep } from './arrowKeys';
import { rowKeyAction, type RowSelection } from './rowSelection';

const EDITABLE = 'input, select, textarea, [contenteditable="true"], [contenteditable=""]';

/**
 * The list's keys. On a row: ↑/↓, j/k, Home/End move the row focus, Enter opens the focused
 * report, Space (Shift+Space for a range) selects it. Elsewhere on the screen, outside form
 * fields and dialogs, j/k and ↑/↓ bring the focus into the rows. On a row or outside fields,
 * buttons and links, ←/→ turn to the page drawn on that side of the pager (mirrored right to left).
 */
export function useRowKeys(
  selection: RowSelection,
  tableBody: RefObject<HTMLTableSectionElement | null>,
  open: (id: string) => void,
  /** Turns the page one step in reading order; false when there is no page that way. */
  turnPage: (step: ReadingStep) => boolean,
) {
  const latest = useRef({ selection, open, turnPage });
  useEffect(() => {
    latest.current = { selection, open, turnPage };
  });

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented) return;
      const body = tableBody.current;
      if (!body) return;
      const action = rowKeyAction(event, layoutDirection(body));
      if (!action) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('[role="dialog"], [role="alertdialog"], dialog')) return;
      const rowElements = [...body.querySelectorAll<HTMLElement>('tr[data-row-index]')];
      const turning = action === 'next-page' || action === 'previous-page';
      if (rowElements.length === 0 && !turning) return;
      const { selection: rows, open: openRow, turnPage } = latest.current;
      const onRow = target !== null && rowElements.includes(target as HTMLElement);
      const moving = action !== 'open' && action !== 'toggle' && action !== 'toggle-range';
      if (!onRow) {
        // Off the rows only ↑/↓, j/k and ←/→, and never while typing or choosing in a field.
        if (action !== 'next' && action !== 'previous' && !turning) return;
        if (target?.closest(EDITABLE) && !body.contains(target)) return;
        if (!event.key.match(/^[jk]$/) && target?.closest('button, a[href], summary')) return;
      }
      if (turning) {
        // No page that way: the key keeps its own job (scrolling a table wider than the window).
        if (turnPage(action === 'next-page' ? 1 : -1)) event.preventDefault();
        return;
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
