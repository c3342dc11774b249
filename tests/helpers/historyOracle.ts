/**
 * History computed the plain way, for the tests to hold the cache's (and the CLI's) answers
 * against: straight from the reports, by the definitions in the README, with no index, no
 * pre-counted sums and no cleverness. A URL's result at T is its newest report generated at or
 * before T (the larger id wins a tie: decimal ids by number, other ids as text, every decimal
 * id before every other id); a URL is a project's at T when that report is the project's; a
 * report counts only with a readable generated_at and a result of good, decent or bad.
 */
import { REPORT_RESULTS, type Report, type ReportResult } from '../../shared/model';

export interface Tally {
  good: number;
  decent: number;
  bad: number;
}

interface Counted {
  id: string;
  url: string;
  result: ReportResult;
  project: string;
  at: number;
  generatedAt: string;
}

const pad = (text: string | undefined, width: number) => (text ?? '').padEnd(width, '0');

/**
 * generated_at as an instant, as the copy reads it (ISO 8601 as SQLite's date functions do:
 * a date, then optionally "T" or a space and a time, then optionally Z or ±HH:MM; none is UTC).
 * Days past the month's end roll over as they do in SQLite and JavaScript.
 */
export function instantOf(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}:\d{2})?$/.exec(
      text,
    );
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31) return null;
  if (Number(h ?? 0) > 24 || Number(mi ?? 0) > 59 || Number(s ?? 0) > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  const wall = date.setUTCHours(
    Number(h ?? 0),
    Number(mi ?? 0),
    Number(s ?? 0),
    Number(pad(fraction, 3).slice(0, 3)),
  );
  if (zone === undefined || zone === 'Z') return wall;
  const sign = zone.startsWith('-') ? -1 : 1;
  return wall - sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
}

/** -1, 0 or 1: how two ids order in a tie. */
export function compareIds(a: string, b: string): number {
  const decimal = (id: string) => /^\d+$/.test(id);
  if (decimal(a) !== decimal(b)) return decimal(a) ? -1 : 1;
  if (decimal(a)) {
    const difference = BigInt(a) - BigInt(b);
    if (difference !== 0n) return difference < 0n ? -1 : 1;
    return Math.sign(a.length - b.length);
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Code point order (what SQLite's binary collation gives for UTF-8 text). */
export function compareText(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

export class HistoryOracle {
  private readonly counted: Counted[];

  constructor(reports: readonly Report[]) {
    this.counted = [];
    for (const report of reports) {
      const at = instantOf(report.generated_at);
      const result = report.result;
      if (at === null || !REPORT_RESULTS.includes(result as ReportResult)) continue;
      const project =
        typeof report.project === 'string' && report.project.trim() !== '' ? report.project : '';
      this.counted.push({
        id: String(report.id),
        url: report.url,
        result: result as ReportResult,
        project,
        at,
        generatedAt: report.generated_at as string,
      });
    }
  }

  /** The report that gives `url` its result at T, or null before its first. */
  private standing(url: string, at: number): Counted | null {
    let best: Counted | null = null;
    for (const report of this.counted) {
      if (report.url !== url || report.at > at) continue;
      if (
        best === null ||
        report.at > best.at ||
        (report.at === best.at && compareIds(report.id, best.id) > 0)
      )
        best = report;
    }
    return best;
  }

  private urls(): string[] {
    return [...new Set(this.counted.map((report) => report.url))].sort(compareText);
  }

  /** URLs per result at T (of `project`'s when given). */
  urlsAt(at: number, project: string | null): Tally {
    const tally: Tally = { good: 0, decent: 0, bad: 0 };
    for (const url of this.urls()) {
      const report = this.standing(url, at);
      if (report && (project === null || report.project === project)) tally[report.result] += 1;
    }
    return tally;
  }

  /** Reports generated in [start, end) per result (of `project` when given). */
  generated(start: number, end: number, project: string | null): Tally {
    const tally: Tally = { good: 0, decent: 0, bad: 0 };
    for (const report of this.counted) {
      if (report.at >= start && report.at < end && (project === null || report.project === project))
        tally[report.result] += 1;
    }
    return tally;
  }

  /** The oldest counted report's instant (of the project's). */
  oldest(project: string | null): number | null {
    const ats = this.counted.filter((r) => project === null || r.project === project).map((r) => r.at);
    return ats.length === 0 ? null : Math.min(...ats);
  }

  /** The URLs as they stood at T, in URL order, with the report that gave each its result. */
  standingAt(at: number, project: string | null, result: ReportResult | null) {
    const out: { url: string; id: string; result: ReportResult }[] = [];
    for (const url of this.urls()) {
      const report = this.standing(url, at);
      if (!report || (project !== null && report.project !== project)) continue;
      if (result !== null && report.result !== result) continue;
      out.push({ url, id: report.id, result: report.result });
    }
    return out;
  }

  /** The URLs whose result at `to` differs from their result at `from`, in URL order. */
  compare(from: number, to: number, project: string | null) {
    const out: {
      url: string;
      before: ReportResult | null;
      after: ReportResult;
      beforeId: string | null;
      afterId: string;
    }[] = [];
    for (const url of this.urls()) {
      const after = this.standing(url, to);
      if (!after || (project !== null && after.project !== project)) continue;
      let before = this.standing(url, from);
      if (before && project !== null && before.project !== project) before = null;
      if (before?.result === after.result) continue;
      out.push({
        url,
        before: before?.result ?? null,
        after: after.result,
        beforeId: before?.id ?? null,
        afterId: after.id,
      });
    }
    return out;
  }

  /** A URL's counted reports oldest first, and the reports whose result differs from the one before. */
  timeline(url: string) {
    const reports = this.counted
      .filter((report) => report.url === url)
      .sort((a, b) => a.at - b.at || compareIds(a.id, b.id));
    const transitions = reports
      .filter((report, i) => i > 0 && reports[i - 1].result !== report.result)
      .map((report) => ({
        id: report.id,
        generated_at: report.generatedAt,
        from: reports[reports.indexOf(report) - 1].result,
        to: report.result,
      }));
    return { reports, transitions };
  }
}
