/**
 * The overview: how many reports are good, decent and bad for the list's filters, overall and
 * per project, counted in the offline cache after a full sync (the service has no such count).
 * Drawn with CSS, no chart library; the same numbers are a table for screen readers.
 * Hidden while nothing is synced.
 *
 * The list is the screen's purpose, so the chart never takes its room: it draws the largest
 * PROJECTS_DRAWN projects (the rest on request), and in a short window (styles.css) only a
 * one-line summary of the counts is drawn. The screen readers' table always holds every project.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CacheOverview, ResultCounts } from '../../../shared/contract';
import { REPORT_RESULTS, type ListQuery, type ReportResult } from '../../../shared/model';
import { call } from '../lib/bridge';
import { exactTime, timeAgo } from '../lib/format';
import { useWords, type RendererWords } from '../lib/i18n';
import { afterFirstScreen, queryKeys } from '../lib/queries';
import { resultLabel } from '../lib/reportWords';

const OPEN_KEY = 'reportdesk:overview-open';
/** Projects drawn until the user asks for all: about as tall as the result bars beside them. */
export const PROJECTS_DRAWN = 4;

function totalOf(counts: ResultCounts): number {
  return counts.good + counts.decent + counts.bad + counts.other;
}

export function useOverview(profileId: string, filters: Pick<ListQuery, 'search' | 'project' | 'result'>) {
  return useQuery({
    // Under the cache status key: whatever refreshes the cache status (a sync, a clear, a
    // change) refreshes the overview with it.
    queryKey: [...queryKeys.cacheStatus(profileId), 'overview', filters] as const,
    queryFn: () => afterFirstScreen().then(() => call('cache:overview', filters)),
  });
}

/**
 * One bar per result, to scale, its label before it and its number after it: a grid laid out in
 * the reading direction (mirrored right to left), each label as long as its language makes it.
 */
function ResultBars({ counts }: { counts: ResultCounts }) {
  const words = useWords();
  const max = Math.max(1, ...REPORT_RESULTS.map((r) => counts[r]));
  return (
    <ul className="overview-bars" aria-hidden="true">
      {REPORT_RESULTS.map((result) => (
        <li key={result}>
          <span className="overview-bar-label">{resultLabel(words, result)}</span>
          <span className="overview-bar-track">
            <span
              className={`overview-bar bar-${result}`}
              style={{
                inlineSize: `${(counts[result] / max) * 100}%`,
                minInlineSize: counts[result] > 0 ? 2 : 0,
              }}
            />
          </span>
          <span className="overview-bar-count">{counts[result]}</span>
        </li>
      ))}
    </ul>
  );
}

/** A 100% stacked bar of one project's results (CSS widths). */
function StackedBar({ counts }: { counts: ResultCounts }) {
  const total = totalOf(counts);
  return (
    <div className="stacked-bar" aria-hidden="true">
      {total > 0 &&
        REPORT_RESULTS.map((result: ReportResult) =>
          counts[result] > 0 ? (
            <span
              key={result}
              className={`bar-${result}`}
              style={{ width: `${(counts[result] / total) * 100}%` }}
            />
          ) : null,
        )}
    </div>
  );
}

/** The projects to draw, largest first (ties keep the cache's order, by name). */
function projectsToDraw(projects: CacheOverview['projects'], all: boolean): CacheOverview['projects'] {
  const largestFirst = [...projects].sort((a, b) => totalOf(b) - totalOf(a));
  return all ? largestFirst : largestFirst.slice(0, PROJECTS_DRAWN);
}

function projectName(words: RendererWords, project: string): string {
  return project === '' ? words('overview.no_project') : project;
}

function OverviewTable({ overview }: { overview: CacheOverview }) {
  const words = useWords();
  const rows = [{ name: words('overview.all_matching'), counts: overview.counts }].concat(
    overview.projects.map((p) => ({ name: projectName(words, p.project), counts: p })),
  );
  return (
    <table className="visually-hidden">
      <caption>{words('overview.table_caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{words('report.field.project')}</th>
          {REPORT_RESULTS.map((r) => (
            <th key={r} scope="col">
              {resultLabel(words, r)}
            </th>
          ))}
          <th scope="col">{words('overview.total')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <th scope="row" dir="auto">
              {row.name}
            </th>
            {REPORT_RESULTS.map((r) => (
              <td key={r}>{row.counts[r]}</td>
            ))}
            <td>{totalOf(row.counts)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function OverviewPanel({
  profileId,
  filters,
}: {
  profileId: string;
  filters: Pick<ListQuery, 'search' | 'project' | 'result'>;
}) {
  const words = useWords();
  const overview = useOverview(profileId, filters);
  const [open, setOpen] = useState(() => localStorage.getItem(OPEN_KEY) !== 'closed');
  const [allProjects, setAllProjects] = useState(false);
  const data = overview.data;
  if (!data) return null;

  function toggle() {
    const next = !open;
    setOpen(next);
    localStorage.setItem(OPEN_KEY, next ? 'open' : 'closed');
  }

  return (
    <section className="card overview" aria-labelledby="overview-title">
      <div className="overview-header">
        <h2 id="overview-title" className="section-title">
          {words('overview.heading')}
        </h2>
        <span className="muted" title={exactTime(words, data.lastFullSyncAt)}>
          {words('overview.source', { ago: timeAgo(words, data.lastFullSyncAt) })}
        </span>
        <button
          type="button"
          className="button small"
          aria-expanded={open}
          aria-controls="overview-body"
          onClick={toggle}
        >
          {words(open ? 'overview.hide' : 'overview.show')}
        </button>
      </div>
      {open && (
        <div id="overview-body" className="overview-body">
          <div className="overview-totals">
            <p className="overview-total">
              {words.rich('overview.matching', {
                count: totalOf(data.counts),
                strong: (chunks) => <strong>{chunks}</strong>,
              })}
              {data.counts.other > 0 && (
                <span className="muted">
                  {words('overview.without_result', { count: data.counts.other })}
                </span>
              )}
              {/* Drawn instead of the bars in a short window (styles.css); the table says it to screen readers. */}
              <span className="overview-summary" aria-hidden="true">
                {words('overview.summary', {
                  good: data.counts.good,
                  decent: data.counts.decent,
                  bad: data.counts.bad,
                })}
              </span>
            </p>
            <ResultBars counts={data.counts} />
          </div>
          {data.projects.length > 0 && (
            <div className="overview-projects-part">
              <ul id="overview-projects" className="overview-projects" aria-hidden="true">
                <li className="overview-legend muted">
                  <span>{words('report.field.project')}</span>
                  <span />
                  <span>{words('overview.legend')}</span>
                </li>
                {projectsToDraw(data.projects, allProjects).map((p) => (
                  <li key={p.project}>
                    <span className="overview-project-name" dir="auto">
                      {projectName(words, p.project)}
                    </span>
                    <StackedBar counts={p} />
                    <span className="overview-project-count muted">
                      {p.good} / {p.decent} / {p.bad}
                    </span>
                  </li>
                ))}
              </ul>
              {data.projects.length > PROJECTS_DRAWN && (
                <button
                  type="button"
                  className="button small overview-more"
                  aria-expanded={allProjects}
                  aria-controls="overview-projects"
                  onClick={() => setAllProjects(!allProjects)}
                >
                  {allProjects
                    ? words('overview.show_largest', { count: PROJECTS_DRAWN })
                    : words('overview.show_all', { count: data.projects.length })}
                </button>
              )}
            </div>
          )}
          <OverviewTable overview={data} />
        </div>
      )}
    </section>
  );
}
