/**
 * Schema version 2: the claim on a scope's full sync, shared by every process on the file (see
 * fullSync.ts). Never edit (append a new version instead).
 */
export const V2_SYNC_LEASES = `
  CREATE TABLE sync_leases (
    scope      TEXT PRIMARY KEY,
    -- A random id per running sync; only its owner renews or releases the row.
    owner      TEXT NOT NULL,
    -- Milliseconds since the epoch; a row past it is free to take (its owner stalled or died).
    expires_at INTEGER NOT NULL
  );
  `;
