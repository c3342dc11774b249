/**
 * Schema version 7 (issue 30): the change log moves out of the offline copy, into local.sqlite
 * (../../local/localStore.ts), where a damaged copy cannot take it.
 *
 * - change_outbox: the entries a write of reports found, written in the rows' own transaction
 *   and moved to the change log right after it commits (changeOutbox.ts). A kill between the
 *   two leaves them here; the next move takes them, and the change log ignores an entry it has.
 * - meta ('', 'cache_id'): this file's random id, which names the outbox's entries in the
 *   change log (a new file after a damaged one starts its rows from 1 again under a new id).
 *
 * The old change_log table and the 'changes_since' meta rows are moved by code once this has
 * run (changeOutbox.ts › moveLegacyChangeLog), because the move writes another file. Never edit
 * (append a new version instead).
 */
export const V7_CHANGE_OUTBOX = `
  CREATE TABLE change_outbox (
    seq    INTEGER PRIMARY KEY AUTOINCREMENT,
    scope  TEXT NOT NULL,
    id     TEXT NOT NULL,
    kind   TEXT NOT NULL,
    at     TEXT NOT NULL,
    fields TEXT NOT NULL
  );
  INSERT OR IGNORE INTO meta (scope, key, value) VALUES ('', 'cache_id', lower(hex(randomblob(16))));
  `;
