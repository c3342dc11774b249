/**
 * One row of the reports list. Memoised (issue 22): the list renders again when anything on the
 * screen changes — the "new" marks, the project suggestions, the changes panel's counts, the
 * selection — and a row whose report, place and marks are the same is left as it is instead of
 * being built again, a hundred times over.
 */
import { memo, useLayoutEffect, useRef, useState } from 'react';
import type { Report } from '../../../shared/model';
import type { RowSelection } from '../lib/rowSelection';
import { useWords } from '../lib/i18n';
import { navigate } from '../lib/router';
import { DateText, PrivacyBadge, ResultBadge } from './Badges';

/** What a row asks of the list; one object for every row and render (see useRowActions). */
export interface RowActions {
  setFocus(index: number): void;
  toggle(id: string, range: boolean): void;
}

/**
 * The row actions for `selection`, as one object that stays the same across renders (a new
 * function per render would make every row render again); each call reaches the latest selection.
 */
export function useRowActions(selection: RowSelection): RowActions {
  const latest = useRef(selection);
  useLayoutEffect(() => {
    latest.current = selection;
  });
  const [actions] = useState<RowActions>(() => ({
    setFocus: (index) => latest.current.setFocus(index),
    toggle: (id, range) => latest.current.toggle(id, range),
  }));
  return actions;
}

interface ReportRowProps {
  report: Report;
  index: number;
  /** The row the keyboard acts on. */
  focused: boolean;
  /** The one row in the Tab order (a roving tab stop); the keys move it. */
  tabbable: boolean;
  selected: boolean;
  isNew: boolean;
  actions: RowActions;
}

function rowClass(focused: boolean, selected: boolean): string {
  let name = 'clickable';
  if (focused) name += ' row-focus';
  if (selected) name += ' row-selected';
  return name;
}

export const ReportRow = memo(function ReportRow({
  report,
  index,
  focused,
  tabbable,
  selected,
  isNew,
  actions,
}: ReportRowProps) {
  const words = useWords();
  return (
    <tr
      className={rowClass(focused, selected)}
      tabIndex={tabbable ? 0 : -1}
      data-row-index={index}
      onFocus={(e) => e.target === e.currentTarget && actions.setFocus(index)}
      onClick={() => navigate(`/reports/${report.id}`)}
    >
      <td className="select-cell" onClick={(e) => e.stopPropagation()}>
        <input
          type="checkbox"
          checked={selected}
          aria-label={words('reports.list.select_report', { id: report.id })}
          tabIndex={-1}
          onChange={(e) => actions.toggle(report.id, (e.nativeEvent as MouseEvent).shiftKey === true)}
        />
      </td>
      <td className="id-cell">
        {report.id}
        {isNew && <span className="badge badge-new">{words('changes.kind.added')}</span>}
      </td>
      {/* User data keeps its own direction (issue 28): a URL left to right, cut short at its end. */}
      <td className="url-cell" dir="ltr">
        <a
          href={`#/reports/${encodeURIComponent(report.id)}`}
          // The cell cuts a long URL short; the tooltip shows all of it.
          title={report.url}
          tabIndex={-1}
          onClick={(e) => e.stopPropagation()}
        >
          {report.url}
        </a>
      </td>
      <td>
        <ResultBadge result={report.result} />
      </td>
      <td>
        <PrivacyBadge privacy={report.privacy} />
      </td>
      {report.project === null || report.project === undefined ? (
        <td>
          <span className="muted">—</span>
        </td>
      ) : (
        <td className="project-cell" dir="auto" title={String(report.project)}>
          {String(report.project)}
        </td>
      )}
      <td className="nowrap">
        <DateText value={report.generated_at} />
      </td>
    </tr>
  );
});
