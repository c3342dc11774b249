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
