/**
 * Schema version 3: the list query's planner (listPlan.ts). The search index carries the scope
 * and the filters as well, case-sensitive over the lowercased url, so a trigram phrase is an
 * exact substring match and a search's total is counted in the index alone, without reading
 * a row. Each scope, result and project value gets a number in report_search_keys and is
 * indexed as '<' + one character made of it + '>': exactly one trigram, matching that value
 * only (the triggers avoid INSERT OR IGNORE: an upsert's own conflict handling would
 * override it). The sort indexes end with project and result, so a walk checks those filters in the
 * index, without reading the row. Never edit (append a new version instead).
 */
export const V3_LIST_PLANNER = `
  DROP TRIGGER reports_trigrams_insert;
  DROP TRIGGER reports_trigrams_delete;
  DROP TRIGGER reports_trigrams_update;
  DROP TABLE reports_url_trigrams;
  CREATE TABLE report_search_keys (
    id    INTEGER PRIMARY KEY,
    kind  TEXT NOT NULL,
    value TEXT NOT NULL,
    UNIQUE (kind, value)
  );
  CREATE VIRTUAL TABLE report_search USING fts5 (
    url, scope_key, result_key, project_key,
    content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
  );
  CREATE TRIGGER report_search_insert AFTER INSERT ON reports BEGIN
    INSERT INTO report_search_keys (kind, value) SELECT 's', new.scope
    WHERE new.scope IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 's' AND value = new.scope);
    INSERT INTO report_search_keys (kind, value) SELECT 'r', new.result
    WHERE new.result IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 'r' AND value = new.result);
    INSERT INTO report_search_keys (kind, value) SELECT 'p', new.project
    WHERE new.project IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 'p' AND value = new.project);
    INSERT INTO report_search (rowid, url, scope_key, result_key, project_key) VALUES (
      new.rowid, new.url_lower, (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 's' AND value = new.scope),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'r' AND value = new.result),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'p' AND value = new.project));
  END;
  CREATE TRIGGER report_search_delete AFTER DELETE ON reports BEGIN
    DELETE FROM report_search WHERE rowid = old.rowid;
  END;
  CREATE TRIGGER report_search_update AFTER UPDATE OF url_lower, result, project ON reports
  WHEN old.url_lower IS NOT new.url_lower OR old.result IS NOT new.result
    OR old.project IS NOT new.project BEGIN
    DELETE FROM report_search WHERE rowid = old.rowid;
    INSERT INTO report_search_keys (kind, value) SELECT 's', new.scope
    WHERE new.scope IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 's' AND value = new.scope);
    INSERT INTO report_search_keys (kind, value) SELECT 'r', new.result
    WHERE new.result IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 'r' AND value = new.result);
    INSERT INTO report_search_keys (kind, value) SELECT 'p', new.project
    WHERE new.project IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM report_search_keys WHERE kind = 'p' AND value = new.project);
    INSERT INTO report_search (rowid, url, scope_key, result_key, project_key) VALUES (
      new.rowid, new.url_lower, (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 's' AND value = new.scope),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'r' AND value = new.result),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'p' AND value = new.project));
  END;
  INSERT OR IGNORE INTO report_search_keys (kind, value)
    SELECT 's', scope FROM reports UNION SELECT 'r', result FROM reports
    UNION SELECT 'p', project FROM reports;
  INSERT INTO report_search (rowid, url, scope_key, result_key, project_key)
    SELECT rowid, url_lower, (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 's' AND value = reports.scope),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'r' AND value = reports.result),
      (SELECT '<' || char(65536 + id) || '>' FROM report_search_keys WHERE kind = 'p' AND value = reports.project)
    FROM reports;

  DROP INDEX reports_by_id;
  DROP INDEX reports_by_generated_at;
  DROP INDEX reports_by_url;
  DROP INDEX reports_by_result;
  DROP INDEX reports_by_project;
  CREATE INDEX reports_by_id ON reports (scope, id_sort, id, project, result);
  CREATE INDEX reports_by_generated_at ON reports (scope, generated_at, id_sort, id, project, result);
  CREATE INDEX reports_by_url ON reports (scope, url, id_sort, id, project, result);
  CREATE INDEX reports_by_result ON reports (scope, result, id_sort, id, project);
  CREATE INDEX reports_by_project ON reports (scope, project, id_sort, id, result);
  DELETE FROM sqlite_stat1 WHERE tbl = 'reports';
  INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
    ('reports', 'sqlite_autoindex_reports_1', '100000 50000 1'),
    ('reports', 'reports_by_id', '100000 50000 1 1 1 1'),
    ('reports', 'reports_by_generated_at', '100000 50000 2 1 1 1 1'),
    ('reports', 'reports_by_url', '100000 50000 2 1 1 1 1'),
    ('reports', 'reports_by_result', '100000 50000 30000 1 1 1'),
    ('reports', 'reports_by_project', '100000 50000 100 1 1 1');
  ANALYZE sqlite_schema;
  `;
