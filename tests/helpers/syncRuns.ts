/** Full syncs of generated reports (tests/fixtures/generatedReports.ts) on a real cache, as the sync tests run them. */
import { runFullSync } from '../../electron/core/cache/fullSync';
import type { ReportCache } from '../../electron/core/cache/reportCache';
import type { Report } from '../../shared/report';
import { pageOf } from '../fixtures/generatedReports';

/** A sync of scope 'p' asking one page at a time; answers the pages asked and the summary. */
export async function syncOneAtATime(cache: ReportCache, reports: readonly Report[]) {
  const asked: number[] = [];
  const summary = await runFullSync({
    cache,
    scope: 'p',
    concurrency: 1,
    fetchPage: async (page) => (asked.push(page), pageOf(reports, page)),
  });
  return { asked, summary };
}

/** A sync of scope 'p' stopped when it asks for page `stopAt`: what it wrote before stays. */
export async function syncStoppedAt(
  cache: ReportCache,
  reports: readonly Report[],
  stopAt: number,
): Promise<void> {
  const controller = new AbortController();
  await runFullSync({
    cache,
    scope: 'p',
    concurrency: 1,
    signal: controller.signal,
    fetchPage: async (page) => {
      if (page === stopAt) controller.abort();
      return pageOf(reports, page);
    },
  }).catch(() => undefined);
}
