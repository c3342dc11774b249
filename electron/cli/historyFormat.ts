/**
 * What `cache history`, `cache timeline` and `cache compare` print: the JSON shapes of the
 * README (values as the service sent them: ids, instants, the privacy number) and tables for
 * people, stripped of control characters like everything else the CLI shows.
 */
import type {
  HistoryCompare,
  HistoryPeriod,
  HistoryPeriods,
  HistoryTimeline,
  ResultTally,
} from '../../shared/contract';
import type { PeriodKind } from '../../shared/calendar';
import { dateText, display, privacyText, table, toJson } from './format';

export function periodsJson(
  by: PeriodKind,
  project: string | null,
  periods: readonly HistoryPeriod[],
): string {
  return toJson({
    by,
    project,
    periods: periods.map(({ start, end, urls, generated }) => ({ start, end, urls, generated })),
  });
}

export function timelineJson(answer: Pick<HistoryTimeline, 'url' | 'reports' | 'transitions'>): string {
  return toJson({
    url: answer.url,
    reports: answer.reports.map((report) => ({
      id: report.id,
      generated_at: report.generatedAt,
      result: report.result,
      privacy: report.privacy,
    })),
    transitions: answer.transitions.map((transition) => ({
      id: transition.id,
      generated_at: transition.generatedAt,
      from: transition.from,
      to: transition.to,
    })),
  });
}

export function compareJson(from: string, to: string, changes: HistoryCompare['changes']): string {
  return toJson({
    from,
    to,
    changes: changes.map(({ url, before, after, beforeId, afterId }) => ({
      url,
      before,
      after,
      beforeId,
      afterId,
    })),
  });
}

const HEADINGS: Record<PeriodKind, string> = { day: 'DAY', week: 'WEEK OF', month: 'MONTH' };

/** A period by its first local day ("2025-06-02"), a month by its month ("2025-06"). */
function periodLabel(by: PeriodKind, period: HistoryPeriod): string {
  return period.start.slice(0, by === 'month' ? 7 : 10);
}

function naming(by: PeriodKind, period: HistoryPeriod): string {
  const label = periodLabel(by, period);
  return by === 'week' ? `the week of ${label}` : label;
}

function change(name: string, first: number, last: number): string {
  const delta = last - first;
  return `${name} ${first} → ${last} (${delta > 0 ? '+' : ''}${delta})`;
}

function tallyText(urls: ResultTally): string {
  return `${urls.good} good, ${urls.decent} decent, ${urls.bad} bad`;
}

export function periodsText(answer: HistoryPeriods, whose: string): string {
  const { by, periods } = answer;
  const scope = answer.project === null ? 'all projects' : `project "${display(answer.project)}"`;
  const rows = periods.map((period) => [
    periodLabel(by, period),
    String(period.urls.good),
    String(period.urls.decent),
    String(period.urls.bad),
    `${period.generated.good + period.generated.decent + period.generated.bad} (${period.generated.good}/${period.generated.decent}/${period.generated.bad})`,
  ]);
  const first = periods[0];
  const last = periods[periods.length - 1];
  const summary =
    periods.length === 1
      ? `In ${naming(by, first)}: ${tallyText(first.urls)}.`
      : `From ${naming(by, first)} to ${naming(by, last)}: ${change('good', first.urls.good, last.urls.good)}, ${change('decent', first.urls.decent, last.urls.decent)}, ${change('bad', first.urls.bad, last.urls.bad)}.`;
  return (
    `History of ${whose}, ${scope}, by ${by} (local time ${answer.timeZone}; URLs by their result at the end of each ${by}, and the reports generated in it):\n` +
    table([HEADINGS[by], 'GOOD', 'DECENT', 'BAD', 'REPORTS (GOOD/DECENT/BAD)'], rows) +
    summary +
    '\n'
  );
}

export function timelineText(answer: HistoryTimeline, whose: string): string {
  const changed = new Set(answer.transitions.map((transition) => transition.id));
  const previous = new Map(answer.transitions.map((transition) => [transition.id, transition.from]));
  const rows = answer.reports.map((report) => [
    display(report.id),
    dateText(report.generatedAt),
    report.result,
    privacyText(report.privacy),
    changed.has(report.id) ? `was ${previous.get(report.id)}` : '',
  ]);
  const skipped =
    answer.skipped === 0
      ? ''
      : ` ${answer.skipped} more report${answer.skipped === 1 ? ' has' : 's have'} no readable date or result and ${answer.skipped === 1 ? 'is' : 'are'} left out.`;
  return (
    `Reports of ${display(answer.url)} in the offline copy of ${whose}, oldest first (times as the service sent them):\n` +
    table(['ID', 'GENERATED', 'RESULT', 'PRIVACY', 'CHANGE'], rows) +
    `${answer.transitions.length} of ${answer.reports.length} report${answer.reports.length === 1 ? '' : 's'} changed the result.${skipped}\n`
  );
}

export function compareText(answer: HistoryCompare, whose: string): string {
  const scope = answer.project === null ? 'all projects' : `project "${display(answer.project)}"`;
  const between = `between ${answer.from} and ${answer.to} (${whose}, ${scope})`;
  if (answer.changes.length === 0) return `No URL's result differs ${between}.\n`;
  const rows = answer.changes.map((item) => [
    display(item.url),
    item.before ?? '(new)',
    item.after,
    display(item.beforeId),
    display(item.afterId),
  ]);
  const { counts } = answer;
  return (
    `URLs whose result differs ${between}, by URL:\n` +
    table(['URL', 'BEFORE', 'AFTER', 'BEFORE ID', 'AFTER ID'], rows) +
    `${answer.changes.length} changed: ${counts.new} new, ${counts.better} better, ${counts.worse} worse.\n`
  );
}
