/**
 * Schema version 6 (issue 27): what the offline copy keeps to answer history fast, kept by
 * triggers on `reports`, so every write (sync pages, quick refreshes, write-throughs, single
 * reads, creates, deletes, pruning) keeps it current, and filled here from the rows of a copy
 * made before it. cache/history.ts reads it; docs/ARCHITECTURE.md explains it.
 *
 * A report counts when its generated_at reads as an instant (ISO 8601 as SQLite's date
 * functions read it: YYYY-MM-DD, then optionally a time and "Z" or ±HH:MM; no offset is UTC)
 * and its result is good, decent or bad. Each counted report is a *point* of its URL, ordered
 * by (at, tie): the instant in ms, then the id's tie key, which orders decimal ids by number,
 * other ids by text, and every decimal id before every other id. A point keeps the result,
 * project and tie of the point before it and the instant of the point after it, so:
 *  - a URL's result (and project) at T is its point with at <= T < next_at (NULL: no end);
 *  - a point moves the URLs per result at its instant: +1 for its result, -1 for the previous
 *    one (in the previous point's project). history_buckets sums that per scope, UTC day and
 *    UTC hour and result, history_project_buckets per project as well, each with the reports
 *    generated; the counts at any instant are a sum over days, the hours of part of one day and
 *    the points of part of one hour (cache/historyCounts.ts);
 *  - the URLs whose result differs between two instants are read from the points between them
 *    alone: each one's first point there says what came before (cache/history.ts).
 * Results are 0 good, 1 decent, 2 bad; a report without a project is in project ''.
 * Never edit (append a new version).
 */

/** The instant a row's generated_at names, in ms; NULL when it does not read as one. */
export const AT = (row: string) =>
  `(CASE WHEN ${row}.generated_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'
    THEN CAST(round(unixepoch(${row}.generated_at, 'subsec') * 1000) AS INTEGER) END)`;

/** 0 good, 1 decent, 2 bad; NULL for anything else. */
export const RESULT = (row: string) =>
  `(CASE ${row}.result WHEN 'good' THEN 0 WHEN 'decent' THEN 1 WHEN 'bad' THEN 2 END)`;

/**
 * The id's tie key: "0", one character for the number of digits without leading zeros, those
 * digits, the leading zeros; or "1" and the id for any other id (cache/history.ts reads it back).
 */
export const TIE = (row: string) =>
  `(CASE WHEN ${row}.id NOT GLOB '*[^0-9]*' AND ${row}.id != ''
    THEN '0' || char(65 + length(ltrim(${row}.id, '0'))) || ltrim(${row}.id, '0')
      || substr(${row}.id, 1, length(${row}.id) - length(ltrim(${row}.id, '0')))
    ELSE '1' || ${row}.id END)`;

const COUNTED = (row: string) => `${AT(row)} IS NOT NULL AND ${RESULT(row)} IS NOT NULL`;

/** The length of a bucket in ms: an hour ('h') or a day ('d'). */
const BUCKET_MS = { h: 3_600_000, d: 86_400_000 };

/** The UTC hour or day of an instant in ms, floored (also before 1970). */
export const BUCKET = (ms: string, size: 'h' | 'd') =>
  `((${ms} - ((${ms} % ${BUCKET_MS[size]}) + ${BUCKET_MS[size]}) % ${BUCKET_MS[size]}) / ${BUCKET_MS[size]})`;

/** The point just before (at, tie) among `row`'s URL's points. */
export const BEFORE = (row: string, at: string, tie: string, columns = 'at, tie') =>
  `SELECT ${columns} FROM history_points WHERE scope = ${row}.scope AND url = ${row}.url
   AND (at, tie) < (${at}, ${tie}) ORDER BY at DESC, tie DESC LIMIT 1`;

/** The point just after (at, tie) among `row`'s URL's points. */
export const AFTER = (row: string, at: string, tie: string, columns = 'at, tie') =>
  `SELECT ${columns} FROM history_points WHERE scope = ${row}.scope AND url = ${row}.url
   AND (at, tie) > (${at}, ${tie}) ORDER BY at, tie LIMIT 1`;

/** [project, result, delta, generated]: one change to the sums; a NULL result is none. */
export type Change = [project: string, result: string, delta: number, generated: number];

/** The hour and the day of `at`, as (size, bucket) rows. */
const BUCKETS_OF = (at: string) =>
  `(SELECT 'h' AS size, ${BUCKET(at, 'h')} AS bucket UNION ALL SELECT 'd', ${BUCKET(at, 'd')})`;

/** Adds two changes to the hour and the day of `row.at`, in the scope's sums and in their projects'. */
const ADD_TO_BUCKETS = (row: string, [p1, r1, d1, g1]: Change, [p2, r2, d2, g2]: Change) => `
    INSERT INTO history_buckets (scope, size, bucket, result, delta, generated)
    SELECT ${row}.scope, b.size, b.bucket, c.result, c.delta, c.generated
    FROM ${BUCKETS_OF(`${row}.at`)} AS b,
      (SELECT ${r1} AS result, ${d1} AS delta, ${g1} AS generated UNION ALL SELECT ${r2}, ${d2}, ${g2}) AS c
    WHERE c.result IS NOT NULL
    ON CONFLICT DO UPDATE SET delta = delta + excluded.delta, generated = generated + excluded.generated;
    INSERT INTO history_project_buckets (scope, project, size, bucket, result, delta, generated)
    SELECT ${row}.scope, c.project, b.size, b.bucket, c.result, c.delta, c.generated
    FROM ${BUCKETS_OF(`${row}.at`)} AS b,
      (SELECT ${p1} AS project, ${r1} AS result, ${d1} AS delta, ${g1} AS generated
       UNION ALL SELECT ${p2}, ${r2}, ${d2}, ${g2}) AS c
    WHERE c.result IS NOT NULL
    ON CONFLICT DO UPDATE SET delta = delta + excluded.delta, generated = generated + excluded.generated;`;

/** A counted row of reports becomes a point of its URL, between its neighbours. */
export const ADD_POINT = (row: string) => `
    INSERT INTO history_points (scope, url, at, tie, project, result, prev_result, prev_project, prev_tie, next_at)
    SELECT ${row}.scope, ${row}.url, ${AT(row)}, ${TIE(row)}, coalesce(${row}.project, ''), ${RESULT(row)},
      previous.result, previous.project, previous.tie, (${AFTER(row, AT(row), TIE(row), 'at')})
    FROM (SELECT 1) LEFT JOIN (${BEFORE(row, AT(row), TIE(row), 'result, project, tie')}) AS previous
    WHERE ${COUNTED(row)};`;

/** The point of a row of reports goes (nothing when it was not counted). */
export const REMOVE_POINT = (row: string) => `
    DELETE FROM history_points
    WHERE scope = ${row}.scope AND url = ${row}.url AND at = ${AT(row)} AND tie = ${TIE(row)};`;

/**
 * The triggers on history_points: a point added or removed links its neighbours, and every
 * point change is counted by `sums` (this version: at once into the buckets; v8: pending).
 */
export const POINT_TRIGGERS = (sums: (row: string, first: Change, second: Change) => string) => `
  -- A new point links its neighbours to itself and counts in its day.
  CREATE TRIGGER history_point_added AFTER INSERT ON history_points BEGIN
    UPDATE history_points SET next_at = new.at
    WHERE scope = new.scope AND url = new.url
      AND (at, tie) = (${BEFORE('new', 'new.at', 'new.tie')});
    UPDATE history_points SET prev_result = new.result, prev_project = new.project, prev_tie = new.tie
    WHERE scope = new.scope AND url = new.url
      AND (at, tie) = (${AFTER('new', 'new.at', 'new.tie')});
    ${sums('new', ['new.project', 'new.result', 1, 1], ['new.prev_project', 'new.prev_result', -1, 0])}
  END;
  -- A point gone links its neighbours to each other (not while its whole scope is cleared).
  CREATE TRIGGER history_point_removed AFTER DELETE ON history_points
  WHEN NOT EXISTS (SELECT 1 FROM history_clearing WHERE scope = old.scope) BEGIN
    UPDATE history_points SET next_at = old.next_at
    WHERE scope = old.scope AND url = old.url
      AND (at, tie) = (${BEFORE('old', 'old.at', 'old.tie')});
    UPDATE history_points
    SET prev_result = old.prev_result, prev_project = old.prev_project, prev_tie = old.prev_tie
    WHERE scope = old.scope AND url = old.url
      AND (at, tie) = (${AFTER('old', 'old.at', 'old.tie')});
    ${sums('old', ['old.project', 'old.result', -1, -1], ['old.prev_project', 'old.prev_result', 1, 0])}
  END;
  -- A point whose previous point changed changes what it moves at its instant.
  CREATE TRIGGER history_point_relinked AFTER UPDATE OF prev_result, prev_project ON history_points
  WHEN old.prev_result IS NOT new.prev_result OR old.prev_project IS NOT new.prev_project BEGIN
    ${sums('new', ['old.prev_project', 'old.prev_result', 1, 0], ['new.prev_project', 'new.prev_result', -1, 0])}
  END;
`;

/** The sums of a copy made before this version, from its points: (scope, project, size, bucket). */
const FILL_BUCKETS = (size: 'h' | 'd') => `
  INSERT INTO history_project_buckets (scope, project, size, bucket, result, delta, generated)
  SELECT scope, project, '${size}', bucket, result, sum(delta), sum(generated)
  FROM (SELECT scope, project, ${BUCKET('at', size)} AS bucket, result, 1 AS delta, 1 AS generated
        FROM history_points
        UNION ALL
        SELECT scope, prev_project, ${BUCKET('at', size)}, prev_result, -1, 0 FROM history_points
        WHERE prev_result IS NOT NULL)
  GROUP BY scope, project, bucket, result;`;

/** The points of a copy made before this version, linked to their neighbours, and their sums. */
const FILL = `
  INSERT INTO history_points (scope, url, at, tie, project, result, prev_result, prev_project, prev_tie, next_at)
  SELECT scope, url, at, tie, project, result,
    lag(result) OVER by_time, lag(project) OVER by_time, lag(tie) OVER by_time, lead(at) OVER by_time
  FROM (SELECT scope, url, ${AT('r')} AS at, ${TIE('r')} AS tie, coalesce(project, '') AS project,
          ${RESULT('r')} AS result
        FROM reports r WHERE ${COUNTED('r')})
  WINDOW by_time AS (PARTITION BY scope, url ORDER BY at, tie);
  ${FILL_BUCKETS('h')}
  ${FILL_BUCKETS('d')}
  INSERT INTO history_buckets (scope, size, bucket, result, delta, generated)
  SELECT scope, size, bucket, result, sum(delta), sum(generated) FROM history_project_buckets
  GROUP BY scope, size, bucket, result;`;

export const V6_HISTORY = `
  -- One counted report: a URL's result (and project) from \`at\` until \`next_at\` (NULL: still), with
  -- the result, project and tie of the URL's point before it.
  CREATE TABLE history_points (
    scope        TEXT NOT NULL,
    url          TEXT NOT NULL,
    at           INTEGER NOT NULL,
    tie          TEXT NOT NULL,
    project      TEXT NOT NULL,
    result       INTEGER NOT NULL,
    prev_result  INTEGER,
    prev_project TEXT,
    prev_tie     TEXT,
    next_at      INTEGER,
    PRIMARY KEY (scope, url, at, tie)
  ) WITHOUT ROWID;
  -- A scope's points in time order (ties as in a URL's order), with what a range needs without
  -- reading the table; not next_at, which a new point changes on its predecessor: that one sits
  -- on the new point's page of the table, not here.
  CREATE INDEX history_points_by_time
  ON history_points (scope, at, tie, result, prev_result, project, prev_project, prev_tie);
  -- Per scope (and project), UTC hour ('h') or day ('d') and result: the change in URLs with
  -- that result, and the reports generated.
  CREATE TABLE history_buckets (
    scope     TEXT NOT NULL,
    size      TEXT NOT NULL,
    bucket    INTEGER NOT NULL,
    result    INTEGER NOT NULL,
    delta     INTEGER NOT NULL,
    generated INTEGER NOT NULL,
    PRIMARY KEY (scope, size, bucket, result)
  ) WITHOUT ROWID;
  CREATE TABLE history_project_buckets (
    scope     TEXT NOT NULL,
    project   TEXT NOT NULL,
    size      TEXT NOT NULL,
    bucket    INTEGER NOT NULL,
    result    INTEGER NOT NULL,
    delta     INTEGER NOT NULL,
    generated INTEGER NOT NULL,
    PRIMARY KEY (scope, project, size, bucket, result)
  ) WITHOUT ROWID;
  -- Scopes being cleared whole (cache/history.ts clearScope): their points go without relinking.
  CREATE TABLE history_clearing (scope TEXT PRIMARY KEY) WITHOUT ROWID;
  ${FILL}

  CREATE TRIGGER history_report_added AFTER INSERT ON reports WHEN ${COUNTED('new')} BEGIN
    ${ADD_POINT('new')}
  END;
  CREATE TRIGGER history_report_removed AFTER DELETE ON reports WHEN ${COUNTED('old')} BEGIN
    ${REMOVE_POINT('old')}
  END;
  CREATE TRIGGER history_report_changed AFTER UPDATE OF url, project, result, generated_at ON reports
  WHEN old.url IS NOT new.url OR old.project IS NOT new.project OR old.result IS NOT new.result
    OR old.generated_at IS NOT new.generated_at BEGIN
    ${REMOVE_POINT('old')}
    ${ADD_POINT('new')}
  END;

  ${POINT_TRIGGERS(ADD_TO_BUCKETS)}  `;
