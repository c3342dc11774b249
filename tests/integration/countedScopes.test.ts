/**
 * When a scope's list is counted (migrations/v5ListCounts.ts): from its 20,000th report, its
 * counts filled from its rows and its later rows no longer in the trigram index, while a
 * smaller scope in the same file keeps the trigram index's plans; and at the upgrade of a file
 * written before the counts. The answers equal the oracle (tests/helpers/listOracle.ts)
 * throughout, the counts a recount.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, ReportCache } from '../../electron/core/cache/reportCache';
import { mulberry32 } from '../../electron/demo-service/random';
import { normalizeListQuery } from '../../shared/report';
import { FETCHED_AT, insertRows, randomQuery, recount, serviceReports } from '../helpers/countedData';
import { expectedPage, storedRow, type StoredRow } from '../helpers/listOracle';

describe('a scope that reaches 20,000 reports', () => {
  const queries = (rows: readonly StoredRow[], seed: number) => {
    const random = mulberry32(seed);
    return Array.from({ length: 60 }, () => randomQuery(random, rows));
  };
  const counted = (db: Database.Database) =>
    (db.prepare('SELECT scope FROM counted_scopes ORDER BY scope').pluck().all() as string[]).join();
  const trigramHits = (db: Database.Database, text: string) =>
    (
      db
        .prepare('SELECT count(*) AS n FROM report_search WHERE report_search MATCH ?')
        .get(`url : "${text}"`) as {
        n: number;
      }
    ).n;

  it('is counted from then on, answering as before, while a smaller scope keeps the trigram index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-desk-crossing-'));
    const cache = ReportCache.open(join(dir, 'cache.sqlite'));
    const db = new Database(cache.file);
    try {
      const small = serviceReports(600, 41);
      const big = serviceReports(19_999, 42);
      cache.putReports('small', small, FETCHED_AT);
      insertRows(db, 'big', big.map(storedRow));
      expect(counted(db)).toBe('');
      // The 20,000th report and 299 more, each on a url only it has: the scope joins at one
      // of them (it is looked at every 256th row).
      const after = Array.from({ length: 300 }, (_, i) => ({
        id: String(30_000 + i),
        url: `https://After-Crossing-${i}.example/`,
        result: 'good' as const,
      }));
      cache.putReports('big', after, FETCHED_AT);
      expect(counted(db)).toBe('big');
      // The rows before it joined are in the trigram index, the last ones no longer.
      const indexed = after.map((_, i) => trigramHits(db, `after-crossing-${i}.`));
      expect(indexed[0]).toBe(1);
      expect(indexed.slice(-40)).toEqual(after.slice(-40).map(() => 0));
      expect(cache.query('big', { ...normalizeListQuery(), search: 'after-crossing' }).page.total).toBe(300);
      recount(db);
      const bigRows = [...big, ...after].map(storedRow);
      const smallRows = small.map(storedRow);
      for (const q of queries(bigRows, 43)) {
        const { page, plan } = cache.query('big', q);
        expect({ q, plan: plan.kind, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({
          q,
          plan: plan.kind,
          ...expectedPage(bigRows, q),
        });
      }
      // The smaller scope is still read with the trigram index (choosePlan's plans only).
      for (const q of queries(smallRows, 44)) {
        const { page, plan } = cache.query('small', q);
        expect(['empty', 'walk', 'trigram', 'filter-then-sort']).toContain(plan.kind);
        expect({ q, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({
          q,
          ...expectedPage(smallRows, q),
        });
      }
    } finally {
      db.close();
      cache.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is counted when a cache written before the counts is opened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-desk-counted-migration-'));
    const file = join(dir, 'cache.sqlite');
    try {
      // A file as schema version 3 left it: a scope of 20,000 reports and a smaller one.
      const old = new Database(file);
      MIGRATIONS.slice(0, 3).forEach((sql) => old.exec(sql));
      old.pragma('user_version = 3');
      const rows: Record<string, StoredRow[]> = {
        big: serviceReports(20_000, 45).map(storedRow),
        small: serviceReports(500, 46).map(storedRow),
      };
      for (const [scope, stored] of Object.entries(rows)) insertRows(old, scope, stored);
      old.close();

      const cache = ReportCache.open(file);
      const db = new Database(file);
      try {
        expect(counted(db)).toBe('big');
        recount(db);
        for (const [scope, stored] of Object.entries(rows))
          for (const q of queries(stored, 47)) {
            const { page } = cache.query(scope, q);
            expect({ scope, q, ids: page.reports.map((r) => r.id), total: page.total }).toEqual({
              scope,
              q,
              ...expectedPage(stored, q),
            });
          }
      } finally {
        db.close();
        cache.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
