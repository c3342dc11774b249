/**
 * The demo service's report records and the deterministic data that fills them: the same
 * seed and anchor date always give the same reports.
 */
import { REPORT_RESULTS, type PrivacyValue, type ReportResult } from '../../shared/model';
import { fnv1a, mulberry32, pick, randomInt, type Random } from './random';

export interface ReportCheck {
  name: string;
  passed: boolean;
}

/** Service-specific fields the spec does not list: they prove clients keep unknown fields. */
export interface ReportSummary {
  title: string;
  issues: number;
  checks: ReportCheck[];
}

/** A report as the service stores it. `password_hash` never leaves the service. */
export interface StoredReport {
  id: number;
  url: string;
  result: ReportResult;
  generated_at: string;
  privacy: PrivacyValue;
  project: string | null;
  results: boolean;
  score: number;
  summary: ReportSummary;
  created_at: string;
  updated_at: string;
  password_hash: string | null;
}

export interface Analysis {
  result: ReportResult;
  score: number;
  summary: ReportSummary;
}

const CHECK_NAMES = ['https', 'performance', 'accessibility', 'seo', 'best-practices'] as const;
const PASS_CHANCE: Record<ReportResult, number> = { good: 0.9, decent: 0.6, bad: 0.25 };
const SCORE_RANGE: Record<ReportResult, [number, number]> = {
  good: [80, 100],
  decent: [50, 79],
  bad: [8, 49],
};
const ISSUE_RANGE: Record<ReportResult, [number, number]> = { good: [0, 3], decent: [3, 10], bad: [8, 25] };

/** The result a new report of `url` gets today; the demo's history leads up to it (resultAt). */
function currentResult(url: string): ReportResult {
  return REPORT_RESULTS[fnv1a(url) % REPORT_RESULTS.length];
}

/** An analysis of `url` that came out as `result`: its score and summary depend on both only. */
export function analysisWith(url: string, result: ReportResult): Analysis {
  const random = mulberry32(fnv1a(`${url}#${result}`));
  const [minScore, maxScore] = SCORE_RANGE[result];
  const [minIssues, maxIssues] = ISSUE_RANGE[result];
  const checks = CHECK_NAMES.map((name) => ({
    name,
    passed: name === 'https' ? url.toLowerCase().startsWith('https:') : random() < PASS_CHANCE[result],
  }));
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // Stored URLs are validated; fall back to the raw text rather than fail a listing.
  }
  return {
    result,
    score: randomInt(random, minScore, maxScore),
    summary: { title: `Analysis of ${host}`, issues: randomInt(random, minIssues, maxIssues), checks },
  };
}

/**
 * The "analysis" of a URL today. It depends on the URL alone, so creating a report for the
 * same address always gives the same result, and tests can predict it.
 */
export function analyseUrl(url: string): Analysis {
  return analysisWith(url, currentResult(url));
}

/** One step along good → decent → bad (+1 worse, -1 better), bouncing back at either end. */
function step(result: ReportResult, direction: 1 | -1): ReportResult {
  const index = REPORT_RESULTS.indexOf(result) + direction;
  return REPORT_RESULTS[index < 0 || index >= REPORT_RESULTS.length ? index - 2 * direction : index];
}

/**
 * What an analysis of `url` came out as at `atMs`, for the seeded history: four URLs in ten keep
 * today's result throughout; three got better and three got worse at a moment of their own
 * within the `spanMs` before `anchorMs` (one step, the other way where today's result is already
 * at an end), and today's result holds from then on. `measurement` tells reports apart: one in
 * eight comes out a step off (a flaky page), so results also move back and forth.
 */
export function resultAt(
  url: string,
  atMs: number,
  anchorMs: number,
  spanMs: number,
  measurement: string,
): ReportResult {
  const today = currentResult(url);
  const trend = fnv1a(`${url}#trend`);
  const kind = trend % 10;
  const turnedAt = anchorMs - (((trend >>> 4) % 1000) / 1000) * spanMs;
  const result = kind < 4 || atMs >= turnedAt ? today : step(today, kind < 7 ? 1 : -1);
  const flaky = fnv1a(`${url}#${measurement}`);
  return flaky % 8 === 0 ? step(result, flaky % 16 < 8 ? 1 : -1) : result;
}

// Fictional company domains, grouped by the project they would belong to.
const PROJECT_SITES: Record<string, { hosts: string[]; paths: string[] }> = {
  'marketing-site': {
    hosts: ['www.contoso.com', 'www.northwindtraders.com'],
    paths: [
      '',
      '/about',
      '/pricing',
      '/customers',
      '/campaigns/Spring-Sale',
      '/campaigns/webinar',
      '/contact',
    ],
  },
  docs: {
    hosts: ['docs.contoso.com', 'developer.fabrikam.io'],
    paths: [
      '/getting-started',
      '/guides/authentication',
      '/guides/webhooks',
      '/API/Reports',
      '/api/accounts',
      '/faq',
    ],
  },
  shop: {
    hosts: ['shop.fabrikam.io', 'store.tailspintoys.com'],
    paths: [
      '/products/trail-runner',
      '/products/desk-lamp',
      '/category/outdoor',
      '/cart',
      '/checkout',
      '/sale',
    ],
  },
  blog: {
    hosts: ['blog.contoso.com', 'news.wingtiptoys.com'],
    paths: [
      '/2024/launch-week',
      '/2024/performance-tips',
      '/2025/year-in-review',
      '/tags/engineering',
      '/authors',
    ],
  },
  support: {
    hosts: ['support.contoso.com', 'help.fabrikam.io'],
    paths: ['/tickets/new', '/articles/reset-password', '/articles/billing', '/status', '/community'],
  },
  careers: {
    hosts: ['careers.contoso.com', 'jobs.adventure-works.com'],
    paths: ['/openings', '/openings/frontend-engineer', '/benefits', '/life-at-contoso', '/apply'],
  },
};
const UNASSIGNED_SITES = {
  hosts: [
    'www.example.com',
    'www.woodgrovebank.com',
    'litware.net',
    'proseware.com',
    'www.lucernepublishing.com',
  ],
  paths: ['', '/login', '/news', '/locations', '/investors', '/privacy'],
};
export const DEMO_PROJECTS = Object.keys(PROJECT_SITES);

const DAY_MS = 24 * 60 * 60 * 1000;

function randomUrl(random: Random, project: string | null): string {
  const site = project === null ? UNASSIGNED_SITES : PROJECT_SITES[project];
  const scheme = random() < 0.06 ? 'http' : 'https';
  let url = `${scheme}://${pick(random, site.hosts)}${pick(random, site.paths)}`;
  const extra = random();
  if (extra < 0.15) url += `/${randomInt(random, 2, 480)}`;
  else if (extra < 0.22) url += `?utm_source=${pick(random, ['newsletter', 'ads', 'partner'])}`;
  return url;
}

function randomPrivacy(random: Random): PrivacyValue {
  const roll = random();
  return roll < 0.6 ? 0 : roll < 0.85 ? 1 : 2;
}

/** A URL of the seeded data and the project it belongs to. */
export interface SeedUrl {
  url: string;
  project: string | null;
}

function randomSeedUrl(random: Random): SeedUrl {
  const project = random() < 0.15 ? null : pick(random, DEMO_PROJECTS);
  return { url: randomUrl(random, project), project };
}

/**
 * `count` URLs for reports to be drawn from, so that each is analysed again and again. With
 * `distinct`, each gets a path of its own after the usual ones (a large account's many pages).
 */
export function urlPool(seed: number, count: number, options: { distinct?: boolean } = {}): SeedUrl[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, index) => {
    const drawn = randomSeedUrl(random);
    if (!options.distinct) return drawn;
    const at = drawn.url.indexOf('?');
    const path = `/page-${index + 1}`;
    return {
      ...drawn,
      url: at === -1 ? drawn.url + path : drawn.url.slice(0, at) + path + drawn.url.slice(at),
    };
  });
}

/**
 * `count` reports with ids from `firstId`, created over the `spanDays` (default 365) before
 * `anchor` (ids grow with created_at, as in a real table). Some were re-generated later, so
 * sorting by generated_at differs from sorting by id. Each report's URL is a new random one,
 * or one of `urls`; its result follows that URL's history (resultAt) over the same span, or
 * over `history` when reports are made in slices of a longer one.
 */
export function generateReports(options: {
  seed: number;
  count: number;
  firstId: number;
  anchor: Date;
  passwordHash: string;
  spanDays?: number;
  urls?: readonly SeedUrl[];
  history?: { anchor: Date; spanDays: number };
}): StoredReport[] {
  const random = mulberry32(options.seed);
  const anchorMs = Math.floor(options.anchor.getTime() / 1000) * 1000;
  const spanMs = (options.spanDays ?? 365) * DAY_MS;
  const pool = options.urls;
  const historyAnchorMs = options.history?.anchor.getTime() ?? anchorMs;
  const historySpanMs = options.history ? options.history.spanDays * DAY_MS : spanMs;
  const createdTimes: number[] = [];
  for (let i = 0; i < options.count; i++) {
    createdTimes.push(anchorMs - Math.floor((random() * spanMs) / 1000) * 1000);
  }
  createdTimes.sort((a, b) => a - b);

  return createdTimes.map((createdMs, index) => {
    const { url, project } = pool ? pool[Math.floor(random() * pool.length)] : randomSeedUrl(random);
    const regenerated = random() < 0.25;
    const generatedMs = regenerated
      ? Math.min(anchorMs, createdMs + Math.floor((random() * 60 * DAY_MS) / 1000) * 1000)
      : createdMs;
    const privacy = randomPrivacy(random);
    const created = new Date(createdMs).toISOString();
    const id = options.firstId + index;
    return {
      id,
      url,
      ...analysisWith(url, resultAt(url, generatedMs, historyAnchorMs, historySpanMs, String(id))),
      generated_at: new Date(generatedMs).toISOString(),
      privacy,
      project,
      results: random() < 0.7,
      created_at: created,
      updated_at: new Date(generatedMs).toISOString(),
      password_hash: privacy === 2 ? options.passwordHash : null,
    };
  });
}
