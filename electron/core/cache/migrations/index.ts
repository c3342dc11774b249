/**
 * The cache's schema versions in order; PRAGMA user_version is the number applied. Append,
 * never edit: a file written by an older ReportDesk is brought up to date step by step.
 */
import type Database from 'better-sqlite3';
import { AppFailure, appError } from '../../../../shared/errors';
import { V1_INITIAL } from './v1Initial';
import { V2_SYNC_LEASES } from './v2SyncLeases';
import { V3_LIST_PLANNER } from './v3ListPlanner';
import { V4_OFFLINE_CHANGES } from './v4OfflineChanges';
import { V5_LIST_COUNTS } from './v5ListCounts';
import { V6_HISTORY } from './v6History';
import { V7_CHANGE_OUTBOX } from './v7ChangeOutbox';
import { V8_HISTORY_PENDING } from './v8HistoryPending';

export const MIGRATIONS: readonly string[] = [
  V1_INITIAL,
  V2_SYNC_LEASES,
  V3_LIST_PLANNER,
  V4_OFFLINE_CHANGES,
  V5_LIST_COUNTS,
  V6_HISTORY,
  V7_CHANGE_OUTBOX,
  V8_HISTORY_PENDING,
];

/**
 * Brings the schema up to date in one IMMEDIATE transaction, reading the version inside it:
 * two processes opening a new file at once must not both create the tables.
 */
export function migrate(db: Database.Database, file: string): void {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    assertKnownVersion(version, file);
    for (let next = version; next < MIGRATIONS.length; next++) {
      db.exec(MIGRATIONS[next]);
      db.pragma(`user_version = ${next + 1}`);
    }
  }).immediate();
}

function assertKnownVersion(version: number, file: string): void {
  if (version > MIGRATIONS.length) {
    throw new AppFailure(appError('cache.newer_version', { file }));
  }
}
