/**
 * Random data for the counted road's tests (tests/integration/countedQuery.test.ts and
 * countedScopes.test.ts): urls made to trip a count that assumed words, ids and dates that
 * cross the position buckets, and queries over them; the reference service's reports (also the
 * migration, plan and read tests' data); and two
 * checks on the cache's file.
 */
import type Database from 'better-sqlite3';
import { expect } from 'vitest';
import { pick, type Random } from '../../electron/demo-service/random';
import { generateReports } from '../../electron/demo-service/seed';
import {
  normalizeListQuery,
  PER_PAGE_VALUES,
  REPORT_RESULTS,
  SORT_BY_VALUES,
  SORT_VALUES,
  type NormalizedListQuery,
  type Report,
} from '../../shared/report';
import type { StoredRow } from './listOracle';

export const FETCHED_AT = '2025-06-01T12:00:00.000Z';

/** The reference service's reports as its JSON carries them (ids as text, no password hash). */
export function serviceReports(count: number, seed: number, idStep = 1): Report[] {
  return generateReports({
    seed,
    count,
    firstId: 1,
    anchor: new Date('2025-06-01T00:00:00.000Z'),
    passwordHash: '',
  }).map(({ password_hash: _hash, id, ...rest }) => ({ ...rest, id: String(id * idStep) }));
}
const TOKENS = [
  'contoso',
  'contosoltd',
  'ltd',
  'con',
  'toso',
  'news',
  'newsletter',
  'letter',
  'a',
  'aa',
  'aaa',
  'x',
  '%',
  '_',
  '%_',
  '%25',
  '"hi"',
  "it's",
  'back\\slash',
  'two words',
  'Ünïcode',
  'İstanbul',
  'STRASSE',
  'straße',
  '中文',
  '😀',
  'e\u0301',
  '?q=',
  '&',
  '#frag',
];
const PROJECTS: unknown[] = ['alpha', 'beta', 'R&D', '"q"', null, '', 7];

function randomUrl(random: Random): string {
  const words = (n: number, glue: string) => Array.from({ length: n }, () => pick(random, TOKENS)).join(glue);
  const scheme = pick(random, ['https://', 'http://', 'HTTP://', '']);
  const host = words(1 + Math.floor(random() * 3), pick(random, ['.', '-']));
  // Repeated tokens on purpose: "a/a/a" and "contoso/contoso".
  const path =
    random() < 0.2 ? `/${pick(random, TOKENS)}`.repeat(3) : `/${words(Math.floor(random() * 4), '/')}`;
  return `${scheme}${host}${path}${random() < 0.2 ? `?${words(2, '=')}` : ''}`;
}

export function randomId(random: Random, index: number): string {
  const roll = random();
  // Numeric ids spread over many 4,096-id buckets, some text ids, some longer than a double holds.
  if (roll < 0.8) return String(index * 97 + Math.floor(random() * 90));
  if (roll < 0.9) return `${pick(random, ['a', 'B', 'z-', '中', '0'])}${index}`;
  if (roll < 0.95) return `${index}`.padStart(19, '9');
  return `00${index}`;
}

export function randomReport(random: Random, id: string, urls: readonly string[]): Report {
  const day = 1 + Math.floor(random() * 9);
  return {
    id,
    // Some urls repeat, as reports of the same page do.
    url: urls.length > 0 && random() < 0.4 ? pick(random, urls) : randomUrl(random),
    project: pick(random, PROJECTS) as string | null,
    result: random() < 0.15 ? null : pick(random, REPORT_RESULTS),
    generated_at:
      random() < 0.1
        ? null
        : random() < 0.05
          ? ''
          : `2025-05-0${day}T${String(day).padStart(2, '0')}:00:00.000Z`,
  };
}

export function randomQuery(random: Random, rows: readonly StoredRow[]): NormalizedListQuery {
  const per_page = pick(random, PER_PAGE_VALUES);
  const roll = random();
  // By characters: half a surrogate pair is no search a person types.
  const url = rows.length > 0 ? [...pick(random, rows).url] : [];
  const start = Math.floor(random() * url.length);
  const search =
    roll < 0.25
      ? ''
      : roll < 0.6
        ? url.slice(start, start + 1 + Math.floor(random() * 12)).join('')
        : roll < 0.85
          ? pick(random, TOKENS)
          : pick(random, ['co', 'a', 'ß', 'i̇', 'zz-no-such', '//', '%_', "'", 'CONTOSO']);
  const last = Math.max(1, Math.ceil(rows.length / per_page));
  const pageRoll = random();
  return {
    ...normalizeListQuery(),
    search: random() < 0.2 ? search.toUpperCase() : search,
    project: random() < 0.3 ? pick(random, ['alpha', 'beta', 'R&D', '"q"', '7', 'rare', 'nope']) : '',
    result: random() < 0.3 ? pick(random, REPORT_RESULTS) : null,
    sort_by: pick(random, SORT_BY_VALUES),
    sort: pick(random, SORT_VALUES),
    per_page,
    page:
      pageRoll < 0.4
        ? 1 + Math.floor(random() * 3)
        : pageRoll < 0.9
          ? 1 + Math.floor(random() * last)
          : last + 1 + Math.floor(random() * 2),
  };
}

/** The trigger-kept counts of the counted scopes equal a recount of their reports. */
export function recount(db: Database.Database): void {
  const counted = 'scope IN (SELECT scope FROM counted_scopes)';
  const kept = db
    .prepare(`SELECT scope, url, url_lower, project, result, n FROM search_urls ORDER BY 1, 2, 3, 4, 5`)
    .all();
  const reports = db
    .prepare(
      `SELECT scope, url, url_lower, coalesce(project, '') AS project, coalesce(result, '') AS result, count(*) AS n
       FROM reports WHERE ${counted} GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    )
    .all();
  expect(kept).toEqual(reports);
  const positions = db
    .prepare(
      `SELECT scope, sort, result, sum(n) AS n FROM report_positions GROUP BY 1, 2, 3 HAVING sum(n) > 0 ORDER BY 1, 2, 3`,
    )
    .all();
  const perResult = db
    .prepare(
      `SELECT scope, sort.value AS sort, coalesce(result, 0) AS result, count(*) AS n
       FROM reports, json_each('["g","i","u"]') AS sort WHERE ${counted} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    )
    .all();
  expect(positions).toEqual(perResult);
}

/** Writes rows straight into the reports table, in one transaction (the triggers count them). */
export function insertRows(db: Database.Database, scope: string, rows: readonly StoredRow[]): void {
  const insert = db.prepare(
    `INSERT INTO reports (scope, id, id_sort, url, url_lower, result, project, generated_at, fetched_at, record)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{}')`,
  );
  db.transaction(() => {
    for (const r of rows)
      insert.run(scope, r.id, r.idSort, r.url, r.urlLower, r.result, r.project, r.generatedAt, FETCHED_AT);
  })();
}
