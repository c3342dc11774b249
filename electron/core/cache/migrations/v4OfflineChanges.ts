/**
 * Schema version 4: the change log of "Keep available offline" — what each refresh and sync
 * found different on the service (a report added, changed in a watched field, or gone), per
 * scope, newest last (`seq`). `fields` is JSON: `{"result": {"before": …, "after": …}, …}`.
 * `seen` turns 1 when the user opened the report or marked everything as seen. Kept for 30 days
 * and 10,000 entries per scope (changeLog.ts). Never edit (append a new version instead).
 */
export const V4_OFFLINE_CHANGES = `
  CREATE TABLE change_log (
    seq    INTEGER PRIMARY KEY AUTOINCREMENT,
    scope  TEXT NOT NULL,
    id     TEXT NOT NULL,
    kind   TEXT NOT NULL CHECK (kind IN ('added', 'changed', 'removed')),
    at     TEXT NOT NULL,
    fields TEXT NOT NULL,
    seen   INTEGER NOT NULL DEFAULT 0
  );
  -- Newest first per scope, and the retention's oldest-first trim.
  CREATE INDEX change_log_by_scope ON change_log (scope, seq);
  -- A report's entries: its "new" mark, and marking it seen when it is opened.
  CREATE INDEX change_log_by_report ON change_log (scope, id);
  `;
