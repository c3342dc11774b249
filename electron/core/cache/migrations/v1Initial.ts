/**
 * Schema version 1: reports (the filtered and sorted columns copied out of the JSON record and
 * indexed), the trigger-kept row counts, fixed planner statistics, accounts and meta values.
 * Never edit: a file already migrated by a user must match (append a new version instead).
 */
export const V1_INITIAL = `
  CREATE TABLE reports (
    scope          TEXT NOT NULL,
    id             TEXT NOT NULL,
    -- No declared type on purpose: integers for numeric ids, text otherwise (see idSortKey).
    id_sort        NOT NULL,
    url            TEXT NOT NULL,
    url_lower      TEXT NOT NULL,
    result         TEXT,
    project        TEXT,
    generated_at   TEXT,
    fetched_at     TEXT NOT NULL,
    last_seen_sync TEXT,
    -- Last: the big JSON stays out of the way of scans that read only the columns above.
    record         TEXT NOT NULL,
    PRIMARY KEY (scope, id)
  );
  -- One index per sort order, scope first, ending with the id tie-break, so a page is an
  -- index walk with no sort step.
  CREATE INDEX reports_by_id ON reports (scope, id_sort, id);
  CREATE INDEX reports_by_generated_at ON reports (scope, generated_at, id_sort, id);
  CREATE INDEX reports_by_url ON reports (scope, url, id_sort, id);
  CREATE INDEX reports_by_result ON reports (scope, result, id_sort, id);
  CREATE INDEX reports_by_project ON reports (scope, project, id_sort, id);
  -- Substring search: a trigram index finds the candidate rows of a 3+ character search
  -- without scanning the scope (shorter searches scan; they match most rows anyway).
  CREATE VIRTUAL TABLE reports_url_trigrams USING fts5 (
    url_lower, content = '', contentless_delete = 1, tokenize = 'trigram'
  );
  CREATE TRIGGER reports_trigrams_insert AFTER INSERT ON reports BEGIN
    INSERT INTO reports_url_trigrams (rowid, url_lower) VALUES (new.rowid, new.url_lower);
  END;
  CREATE TRIGGER reports_trigrams_delete AFTER DELETE ON reports BEGIN
    DELETE FROM reports_url_trigrams WHERE rowid = old.rowid;
  END;
  CREATE TRIGGER reports_trigrams_update AFTER UPDATE OF url_lower ON reports
  WHEN old.url_lower IS NOT new.url_lower BEGIN
    DELETE FROM reports_url_trigrams WHERE rowid = old.rowid;
    INSERT INTO reports_url_trigrams (rowid, url_lower) VALUES (new.rowid, new.url_lower);
  END;

  -- Row counts per (scope, project, result), kept by triggers, so the total of an unsearched
  -- list is a lookup in a few dozen rows instead of a count over 100,000 index entries.
  CREATE TABLE report_counts (
    scope   TEXT NOT NULL,
    project TEXT NOT NULL,
    result  TEXT NOT NULL,
    n       INTEGER NOT NULL,
    PRIMARY KEY (scope, project, result)
  );
  CREATE TRIGGER reports_counted_insert AFTER INSERT ON reports BEGIN
    INSERT INTO report_counts (scope, project, result, n)
    VALUES (new.scope, coalesce(new.project, ''), coalesce(new.result, ''), 1)
    ON CONFLICT (scope, project, result) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER reports_counted_delete AFTER DELETE ON reports BEGIN
    UPDATE report_counts SET n = n - 1
    WHERE scope = old.scope AND project = coalesce(old.project, '') AND result = coalesce(old.result, '');
  END;
  CREATE TRIGGER reports_counted_update AFTER UPDATE OF project, result ON reports
  WHEN old.project IS NOT new.project OR old.result IS NOT new.result BEGIN
    UPDATE report_counts SET n = n - 1
    WHERE scope = old.scope AND project = coalesce(old.project, '') AND result = coalesce(old.result, '');
    INSERT INTO report_counts (scope, project, result, n)
    VALUES (new.scope, coalesce(new.project, ''), coalesce(new.result, ''), 1)
    ON CONFLICT (scope, project, result) DO UPDATE SET n = n + 1;
  END;

  -- Fixed planner statistics (the shape of a large cache: many rows per scope, few per
  -- project, a third per result), so plans do not depend on when ANALYZE last ran.
  ANALYZE sqlite_schema;
  DELETE FROM sqlite_stat1 WHERE tbl = 'reports';
  INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
    ('reports', 'sqlite_autoindex_reports_1', '100000 50000 1'),
    ('reports', 'reports_by_id', '100000 50000 1 1'),
    ('reports', 'reports_by_generated_at', '100000 50000 2 1 1'),
    ('reports', 'reports_by_url', '100000 50000 2 1 1'),
    ('reports', 'reports_by_result', '100000 50000 30000 1 1'),
    ('reports', 'reports_by_project', '100000 50000 100 1 1');
  ANALYZE sqlite_schema;

  CREATE TABLE accounts (
    scope      TEXT PRIMARY KEY,
    record     TEXT NOT NULL,
    fetched_at TEXT NOT NULL
  );

  CREATE TABLE meta (
    scope TEXT NOT NULL,
    key   TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (scope, key)
  );
  `;
