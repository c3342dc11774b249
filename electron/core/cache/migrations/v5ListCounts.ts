/**
 * Schema version "list counts" (issue 22; the lead numbers it at merge): counts kept by triggers
 * so a large scope's list query neither counts a search's matches one by one nor steps over
 * every row before a deep page (see countedQuery.ts and pageSeek.ts).
 *
 * - counted_scopes: the scopes whose list is counted. A scope joins soon after it reaches
 *   20,000 reports (or at this migration, if it has them) and stays; joining fills its counts from
 *   its rows. Its rows are then counted as they change, and no longer added to the trigram
 *   index of migrations/v3ListPlanner.ts (which only smaller scopes use): a large scope's
 *   write costs the counts instead of the trigrams.
 * - search_urls: reports per (scope, url, lowercased url, project, result), and a trigram index
 *   over them. A report has exactly one url, so the reports a search matches are the sum of
 *   the counts of the urls that contain it: exact for any search, and as costly as the number
 *   of distinct urls it matches, not of reports. A count that reaches 0 is dropped with its
 *   trigrams.
 * - report_positions: reports per bucket of a sort order ('i': id_sort, 4,096 numeric ids or
 *   the first two characters of a text id; 'g': the day of generated_at; 'u': the first 24
 *   characters of the url), per result. A bucket is a function of the order's first column
 *   that never decreases along it, so the rows before a bucket are the sum of the buckets
 *   before it, and a deep page starts by a seek to its bucket. A NULL result is kept as 0,
 *   which sorts before every text as NULL does. Buckets that reach 0 stay (as report_counts).
 *
 * Never edit (append a new version).
 */

/** Whether the scope of `row` is counted. */
const COUNTED = (row: 'new' | 'old') => `EXISTS (SELECT 1 FROM counted_scopes WHERE scope = ${row}.scope)`;

/** The search_urls row a reports row is counted in. */
const URL_ROW = (row: 'new' | 'old') =>
  `scope = ${row}.scope AND url = ${row}.url AND url_lower = ${row}.url_lower
      AND project = coalesce(${row}.project, '') AND result = coalesce(${row}.result, '')`;

/** The bucket of a row (`row.` + column) in each counted sort order. */
const BUCKETS = {
  i: (row: string) =>
    `CASE WHEN typeof(${row}.id_sort) IN ('integer', 'real') THEN ${row}.id_sort >> 12 ELSE substr(${row}.id_sort, 1, 2) END`,
  g: (row: string) => `coalesce(substr(${row}.generated_at, 1, 10), '')`,
  u: (row: string) => `substr(${row}.url, 1, 24)`,
};

const countUrl = (row: 'new' | 'old') => `
    INSERT INTO search_urls (scope, url, url_lower, project, result, n)
    SELECT ${row}.scope, ${row}.url, ${row}.url_lower, coalesce(${row}.project, ''), coalesce(${row}.result, ''), 1
    WHERE ${COUNTED(row)}
    ON CONFLICT DO UPDATE SET n = n + 1;`;

const uncountUrl = (row: 'new' | 'old') => `
    DELETE FROM search_urls WHERE ${URL_ROW(row)} AND n = 1;
    UPDATE search_urls SET n = n - 1 WHERE ${URL_ROW(row)};`;

/** One statement for the three orders (one look at counted_scopes, as countUrl). */
const countPositions = (row: 'new' | 'old') => `
    INSERT INTO report_positions (scope, sort, bucket, result, n)
    SELECT ${row}.scope, column1, column2, coalesce(${row}.result, 0), 1
    FROM (VALUES ${Object.entries(BUCKETS)
      .map(([sort, bucket]) => `('${sort}', ${bucket(row)})`)
      .join(', ')})
    WHERE ${COUNTED(row)}
    ON CONFLICT DO UPDATE SET n = n + 1;`;

const uncountPositions = (row: 'new' | 'old') =>
  Object.entries(BUCKETS)
    .map(
      ([sort, bucket]) => `
    UPDATE report_positions SET n = n - 1
    WHERE scope = ${row}.scope AND sort = '${sort}' AND bucket = ${bucket(row)}
      AND result = coalesce(${row}.result, 0);`,
    )
    .join('');

const fillPositions = Object.entries(BUCKETS)
  .map(
    ([sort, bucket]) => `
    INSERT INTO report_positions (scope, sort, bucket, result, n)
    SELECT scope, '${sort}', ${bucket('reports')}, coalesce(result, 0), count(*)
    FROM reports WHERE scope = new.scope GROUP BY 3, 4;`,
  )
  .join('');

/** The trigram index's keys and row of migrations/v3ListPlanner.ts for `new`, as there. */
const trigramKeys = (['s', 'r', 'p'] as const)
  .map((kind) => {
    const column = { s: 'scope', r: 'result', p: 'project' }[kind];
    return `
    INSERT INTO report_search_keys (kind, value) SELECT '${kind}', new.${column}
    WHERE new.${column} IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = '${kind}' AND value = new.${column});`;
  })
  .join('');
const trigramRow = `
    SELECT new.rowid, new.url_lower,
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 's' AND value = new.scope),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'r' AND value = new.result),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'p' AND value = new.project)`;

export const V5_LIST_COUNTS = `
  CREATE TABLE counted_scopes (scope TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TABLE search_urls (
    id        INTEGER PRIMARY KEY,
    scope     TEXT NOT NULL,
    url       TEXT NOT NULL,
    url_lower TEXT NOT NULL,
    project   TEXT NOT NULL,
    result    TEXT NOT NULL,
    n         INTEGER NOT NULL,
    -- 1 once the scope holds the url with a second lowercased form (never, as the cache writes
    -- url_lower): its rows then need checking, as its counts do not say which of them match.
    shared    INTEGER NOT NULL DEFAULT 0,
    UNIQUE (scope, url, url_lower, project, result)
  );
  CREATE VIRTUAL TABLE search_url_trigrams USING fts5 (
    url_lower, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
  );
  CREATE TRIGGER search_urls_indexed AFTER INSERT ON search_urls BEGIN
    INSERT INTO search_url_trigrams (rowid, url_lower) VALUES (new.id, new.url_lower);
    UPDATE search_urls SET shared = 1 WHERE scope = new.scope AND url = new.url
      AND EXISTS (SELECT 1 FROM search_urls WHERE scope = new.scope AND url = new.url AND url_lower != new.url_lower);
  END;
  CREATE TRIGGER search_urls_dropped AFTER DELETE ON search_urls BEGIN
    DELETE FROM search_url_trigrams WHERE rowid = old.id;
  END;
  -- No declared type for bucket and result: numbers and text keep SQLite's order.
  CREATE TABLE report_positions (
    scope  TEXT NOT NULL,
    sort   TEXT NOT NULL,
    bucket NOT NULL,
    result NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (scope, sort, bucket, result)
  ) WITHOUT ROWID;

  -- A scope that joins is counted from its rows as they are.
  CREATE TRIGGER counted_scopes_filled AFTER INSERT ON counted_scopes BEGIN
    INSERT INTO search_urls (scope, url, url_lower, project, result, n)
    SELECT scope, url, url_lower, coalesce(project, ''), coalesce(result, ''), count(*)
    FROM reports WHERE scope = new.scope GROUP BY 2, 3, 4, 5;
    ${fillPositions}
  END;

  -- One trigger, in this order: a counted scope's new row is counted; then a scope that has
  -- reached 20,000 rows joins (looked at every 256th row, which is soon enough), and its
  -- counts are filled from its rows, this one included, once.
  CREATE TRIGGER list_counts_insert AFTER INSERT ON reports BEGIN
    ${countUrl('new')}
    ${countPositions('new')}
    INSERT INTO counted_scopes (scope) SELECT new.scope
    WHERE new.rowid % 256 = 0 AND NOT ${COUNTED('new')}
      AND (SELECT sum(n) FROM report_counts WHERE scope = new.scope) >= 20000;
  END;
  CREATE TRIGGER list_counts_delete AFTER DELETE ON reports WHEN ${COUNTED('old')} BEGIN
    ${uncountUrl('old')}
    ${uncountPositions('old')}
  END;
  CREATE TRIGGER list_counts_update_url AFTER UPDATE OF url, url_lower, project, result ON reports
  WHEN (old.url IS NOT new.url OR old.url_lower IS NOT new.url_lower
    OR old.project IS NOT new.project OR old.result IS NOT new.result) AND ${COUNTED('new')} BEGIN
    ${uncountUrl('old')}
    ${countUrl('new')}
  END;
  CREATE TRIGGER list_counts_update_positions
  AFTER UPDATE OF id_sort, generated_at, url, result ON reports
  WHEN (old.id_sort IS NOT new.id_sort OR old.generated_at IS NOT new.generated_at
    OR old.url IS NOT new.url OR old.result IS NOT new.result) AND ${COUNTED('new')} BEGIN
    ${uncountPositions('old')}
    ${countPositions('new')}
  END;

  -- The trigram index keeps the rows of scopes that are not counted (a row leaves it on any
  -- change, and comes back only while its scope is not counted).
  DROP TRIGGER report_search_insert;
  CREATE TRIGGER report_search_insert AFTER INSERT ON reports WHEN NOT ${COUNTED('new')} BEGIN
    ${trigramKeys}
    INSERT INTO report_search (rowid, url, scope_key, result_key, project_key) ${trigramRow};
  END;
  DROP TRIGGER report_search_update;
  CREATE TRIGGER report_search_update AFTER UPDATE OF url_lower, result, project ON reports
  WHEN old.url_lower IS NOT new.url_lower OR old.result IS NOT new.result
    OR old.project IS NOT new.project BEGIN
    DELETE FROM report_search WHERE rowid = old.rowid;
    ${trigramKeys}
    INSERT INTO report_search (rowid, url, scope_key, result_key, project_key) ${trigramRow}
    WHERE NOT ${COUNTED('new')};
  END;

  INSERT INTO counted_scopes (scope) SELECT scope FROM report_counts GROUP BY scope HAVING sum(n) >= 20000;
  `;
