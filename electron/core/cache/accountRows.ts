/**
 * The account a scope's key belongs to, as the service last answered it (`accounts` table): kept
 * so that the Account screen and a changed account's check work offline. Never a secret: the
 * record is stripped of secret fields before it is written.
 */
import type Database from 'better-sqlite3';
import type { Account } from '../../../shared/report';
import { stripSecrets } from './records';

type Statement = (sql: string) => Database.Statement;

export function writeAccount(statement: Statement, scope: string, account: Account, fetchedAt: string): void {
  statement(
    `INSERT INTO accounts (scope, record, fetched_at) VALUES (?, ?, ?)
     ON CONFLICT (scope) DO UPDATE SET record = excluded.record, fetched_at = excluded.fetched_at`,
  ).run(scope, JSON.stringify(stripSecrets(account)), fetchedAt);
}

export function readAccount(
  statement: Statement,
  scope: string,
): { account: Account; fetchedAt: string } | null {
  const row = statement('SELECT record, fetched_at FROM accounts WHERE scope = ?').get(scope) as
    { record: string; fetched_at: string } | undefined;
  return row ? { account: JSON.parse(row.record) as Account, fetchedAt: row.fetched_at } : null;
}
