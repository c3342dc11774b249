/**
 * Schema version 8 (issue 29): the same history as version 6, kept for less per written row.
 *
 * Version 6's triggers add every change of a point to its hour and its day, in the scope's sums
 * and in its project's, as it happens: a report whose result changed removed its point and
 * added it again, and each step relinked its neighbours and upserted eight bucket rows — most
 * of the cost of writing a page of changed reports. Now:
 *  - a report whose result or project changed, at the same URL and instant, changes its point
 *    in place (history_report_rerated, history_point_rerated); only a report that moved (URL,
 *    instant, counted or not) still removes and adds its point (history_report_moved);
 *  - the points' changes to the sums are appended to history_pending (scope, project, hour),
 *    and summed into history_buckets and history_project_buckets once per transaction, before it
 *    commits (../historyPending.ts, run by cacheConnection.ts): no reader ever sees them pending,
 *    and a kill loses them together with the rows that made them.
 * history_points, the sums and what they mean are unchanged (v6History.ts). Never edit (append a
 * new version instead).
 */
import {
  ADD_POINT,
  AFTER,
  AT,
  BUCKET,
  POINT_TRIGGERS,
  REMOVE_POINT,
  RESULT,
  TIE,
  type Change,
} from './v6History';

/** Appends two changes to the sums of `row.at`'s hour (a NULL result is none). */
const PEND = (row: string, [p1, r1, d1, g1]: Change, [p2, r2, d2, g2]: Change) => `
    INSERT INTO history_pending (scope, project, hour, result, delta, generated)
    SELECT ${row}.scope, c.project, ${BUCKET(`${row}.at`, 'h')}, c.result, c.delta, c.generated
    FROM (SELECT ${p1} AS project, ${r1} AS result, ${d1} AS delta, ${g1} AS generated
          UNION ALL SELECT ${p2}, ${r2}, ${d2}, ${g2}) AS c
    WHERE c.result IS NOT NULL;`;

/** The row keeps its point (same URL and instant, counted before and after). */
const KEEPS_POINT = `old.url IS new.url AND ${AT('old')} IS ${AT('new')}
    AND ${RESULT('old')} IS NOT NULL AND ${RESULT('new')} IS NOT NULL`;

export const V8_HISTORY_PENDING = `
  DROP TRIGGER history_report_changed;
  DROP TRIGGER history_point_added;
  DROP TRIGGER history_point_removed;
  DROP TRIGGER history_point_relinked;
  -- Changes to the sums not yet added to them; empty whenever a transaction commits.
  CREATE TABLE history_pending (
    scope     TEXT NOT NULL,
    project   TEXT NOT NULL,
    hour      INTEGER NOT NULL,
    result    INTEGER NOT NULL,
    delta     INTEGER NOT NULL,
    generated INTEGER NOT NULL
  );

  CREATE TRIGGER history_report_moved AFTER UPDATE OF url, project, result, generated_at ON reports
  WHEN NOT (${KEEPS_POINT}) BEGIN
    ${REMOVE_POINT('old')}
    ${ADD_POINT('new')}
  END;
  CREATE TRIGGER history_report_rerated AFTER UPDATE OF project, result ON reports
  WHEN ${KEEPS_POINT} AND (old.project IS NOT new.project OR old.result IS NOT new.result) BEGIN
    UPDATE history_points SET project = coalesce(new.project, ''), result = ${RESULT('new')}
    WHERE scope = new.scope AND url = new.url AND at = ${AT('new')} AND tie = ${TIE('new')};
  END;

  ${POINT_TRIGGERS(PEND)}
  -- A point whose result or project changed: the point after it sees it, and its hour counts it anew.
  CREATE TRIGGER history_point_rerated AFTER UPDATE OF project, result ON history_points
  WHEN old.project IS NOT new.project OR old.result IS NOT new.result BEGIN
    UPDATE history_points SET prev_result = new.result, prev_project = new.project
    WHERE scope = new.scope AND url = new.url
      AND (at, tie) = (${AFTER('new', 'new.at', 'new.tie')});
    ${PEND('new', ['old.project', 'old.result', -1, -1], ['new.project', 'new.result', 1, 1])}
  END;
  `;
