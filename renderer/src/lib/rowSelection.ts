/**
 * Row focus and row selection for a paged list. The focus is one row the keyboard acts on
 * (↑/↓ or j/k move it, Enter opens it, Space selects it); the selection is a set of ids on the
 * current page that bulk actions act on. Both belong to one page of one query: when the query
 * or the page changes (the reset key), they start over, so an action never reaches a report
 * the user can no longer see.
 */
import { useState } from 'react';
import { readingStep, type Direction } from './arrowKeys';

export interface RowSelectionState {
  /** Index of the focused row on the page, or -1 before the keyboard has picked one. */
  focus: number;
  /** Selected ids (may hold ids that left the page after a refetch; see selectedIds). */
  selected: ReadonlySet<string>;
  /** The id a Shift-click or Shift+Space extends a range from. */
  anchor: string | null;
}

export const EMPTY_ROW_SELECTION: RowSelectionState = { focus: -1, selected: new Set(), anchor: null };

/** What a key does in the list, or null when the list leaves the key alone. */
export type RowKeyAction =
  'next' | 'previous' | 'first' | 'last' | 'open' | 'toggle' | 'toggle-range' | 'next-page' | 'previous-page';

/**
 * What a key does in the list laid out in `direction`: ↑/↓ move along the rows, and ←/→ turn to
 * the page drawn on that side of the pager (in a right-to-left list ← is the next page).
 */
export function rowKeyAction(
  event: {
    key: string;
    ctrlKey?: boolean;
    metaKey?: boolean;
    altKey?: boolean;
    shiftKey?: boolean;
  },
  direction: Direction = 'ltr',
): RowKeyAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const step = event.shiftKey ? null : readingStep(event.key, direction);
  if (step !== null) return step === 1 ? 'next-page' : 'previous-page';
  switch (event.key) {
    case 'ArrowDown':
    case 'j':
      return 'next';
    case 'ArrowUp':
    case 'k':
      return 'previous';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'Enter':
      return 'open';
    case ' ':
    case 'Spacebar':
      return event.shiftKey ? 'toggle-range' : 'toggle';
    default:
      return null;
  }
}

/** Moves the focus by `delta` rows, staying on the page; from no focus, ↓ and ↑ both start at the top. */
export function moveFocus(state: RowSelectionState, rowCount: number, delta: number): RowSelectionState {
  if (rowCount === 0) return { ...state, focus: -1 };
  const focus = state.focus < 0 ? 0 : Math.min(rowCount - 1, Math.max(0, state.focus + delta));
  return { ...state, focus };
}

/**
 * Toggles one row. With `range`, every row from the anchor to this one takes the new state of
 * this row (the file-manager rule), and the anchor stays where it was.
 */
export function toggleRow(
  state: RowSelectionState,
  rowIds: readonly string[],
  id: string,
  range = false,
): RowSelectionState {
  const index = rowIds.indexOf(id);
  if (index < 0) return state;
  const select = !state.selected.has(id);
  const selected = new Set(state.selected);
  const anchorIndex = range && state.anchor !== null ? rowIds.indexOf(state.anchor) : -1;
  const [from, to] =
    anchorIndex < 0 ? [index, index] : [Math.min(anchorIndex, index), Math.max(anchorIndex, index)];
  for (const rowId of rowIds.slice(from, to + 1)) {
    if (select) selected.add(rowId);
    else selected.delete(rowId);
  }
  return { focus: index, selected, anchor: anchorIndex < 0 ? id : state.anchor };
}

/** Selects every row on the page, or clears the selection. */
export function selectPage(
  state: RowSelectionState,
  rowIds: readonly string[],
  select: boolean,
): RowSelectionState {
  return { ...state, selected: select ? new Set(rowIds) : new Set(), anchor: null };
}

export type PageSelection = 'none' | 'some' | 'all';

export interface RowSelection {
  focus: number;
  focusedId: string | null;
  /** Selected ids that are on the page now, in page order. */
  selectedIds: string[];
  pageSelection: PageSelection;
  isSelected(id: string): boolean;
  setFocus(index: number): void;
  move(delta: number): void;
  toggle(id: string, range?: boolean): void;
  selectPage(select: boolean): void;
  clear(): void;
}

/**
 * The hook: `rowIds` are the ids on the page in display order, `resetKey` names the query and
 * page they came from (a change clears focus and selection).
 */
export function useRowSelection(rowIds: readonly string[], resetKey: string): RowSelection {
  const [state, setState] = useState<RowSelectionState>(EMPTY_ROW_SELECTION);
  const [key, setKey] = useState(resetKey);
  // Adjusting state while rendering, as React recommends over an effect that resets it.
  let current = state;
  if (key !== resetKey) {
    setKey(resetKey);
    setState(EMPTY_ROW_SELECTION);
    current = EMPTY_ROW_SELECTION;
  }

  const ids = rowIds;
  const focus = Math.min(current.focus, ids.length - 1);
  const selectedIds = ids.filter((id) => current.selected.has(id));
  const pageSelection: PageSelection =
    selectedIds.length === 0 ? 'none' : selectedIds.length === ids.length ? 'all' : 'some';

  return {
    focus,
    focusedId: focus >= 0 ? (ids[focus] ?? null) : null,
    selectedIds,
    pageSelection,
    isSelected: (id) => current.selected.has(id),
    setFocus: (index) => setState((s) => ({ ...s, focus: Math.min(Math.max(index, -1), ids.length - 1) })),
    move: (delta) => setState((s) => moveFocus(s, ids.length, delta)),
    toggle: (id, range = false) => setState((s) => toggleRow(s, ids, id, range)),
    selectPage: (select) => setState((s) => selectPage(s, ids, select)),
    clear: () => setState((s) => selectPage(s, ids, false)),
  };
}
