/**
 * Random offline copies for the history tests: a few URLs with several reports each over some
 * weeks, results that change and stay, several projects (and none), reports generated at the
 * same instant (ties, decided by the id), instants on exact midnights and hours, generated_at
 * written with Z, with offsets east and west of UTC, with fractions and without seconds, and a
 * few reports that history must leave out (no readable date, a result it does not know).
 */
import { pick, type Random } from '../../electron/demo-service/random';
import type { Report } from '../../shared/model';

const HOUR = 3_600_000;

/** An instant written as a service might: Z, an offset (east or west), a fraction, no seconds. */
export function writtenAs(random: Random, at: number): string {
  const iso = new Date(at).toISOString();
  const roll = random();
  if (roll < 0.4) return iso;
  if (roll < 0.5) return iso.replace('.000Z', 'Z').replace(/\.(\d{3})Z$/, '.$1000Z');
  // Whole minutes only: an offset of +05:30, -03:00 or +01:00 moves the wall time, not the instant.
  const offsetMinutes = pick(random, [330, -180, 60, -570, 0]);
  const wall = new Date(at + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return roll < 0.9 ? `${wall}${zone}` : `${wall.replace('T', ' ')}${zone}`;
}

export interface CopyOptions {
  /** The first instant reports may have. */
  start: number;
  /** How many days after it they spread over. */
  days: number;
  reports: number;
  urls?: number;
  /** Instants some reports land on exactly (the edges of the periods a test will ask for). */
  edges?: readonly number[];
}

/**
 * A random copy. Instants fall on a coarse grid (every quarter hour) often enough that several
 * reports share one and land on midnights and whole hours in every zone, and on `edges`.
 */
export function randomCopy(random: Random, options: CopyOptions): Report[] {
  const urls = Array.from(
    { length: options.urls ?? 8 },
    (_, i) => `https://site.example/${i % 3 === 0 ? 'Ä' : 'p'}${i}`,
  );
  const projects = ['alpha', 'beta', null];
  const projectOf = new Map(urls.map((url) => [url, pick(random, projects)]));
  const current = new Map(urls.map((url) => [url, pick(random, ['good', 'decent', 'bad'] as const)]));
  const reports: Report[] = [];
  const usedIds = new Set<string>();
  for (let i = 0; i < options.reports; i++) {
    const url = pick(random, urls);
    // Results stay more often than they change.
    if (random() < 0.35) current.set(url, pick(random, ['good', 'decent', 'bad'] as const));
    const grid = random();
    const at =
      options.edges?.length && grid < 0.15
        ? pick(random, options.edges)
        : options.start +
          (grid < 0.6
            ? Math.floor(random() * options.days * 96) * (HOUR / 4)
            : Math.floor(random() * options.days * 24 * HOUR));
    let id = String(1 + Math.floor(random() * options.reports * 3));
    if (random() < 0.1) id = `r-${Math.floor(random() * 50)}`;
    if (random() < 0.05) id = `00${id}`;
    if (usedIds.has(id)) continue;
    usedIds.add(id);
    const roll = random();
    reports.push({
      id,
      url,
      result: roll < 0.03 ? null : roll < 0.05 ? ('unknown' as never) : current.get(url)!,
      generated_at: roll > 0.97 ? 'not a date' : writtenAs(random, at),
      // Mostly the URL's project; now and then it moves to another.
      project: random() < 0.1 ? pick(random, projects) : projectOf.get(url),
      privacy: pick(random, [0, 1, 2] as const),
    });
  }
  return reports;
}
