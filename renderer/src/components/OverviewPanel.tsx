/**
 * The overview: how many reports are good, decent and bad for the list's filters, overall and
 * per project, counted in the offline cache after a full sync (the service has no such count).
 * Drawn with SVG and CSS, no chart library; the same numbers are a table for screen readers.
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
import { ageOf } from '../lib/format';
import { afterFirstScreen, queryKeys } from '../lib/queries';
import { RESULT_LABELS } from './Badges';

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

/** One bar per result, to scale; the numbers are printed beside them. */
function ResultBars({ counts }: { counts: ResultCounts }) {
  const max = Math.max(1, ...REPORT_RESULTS.map((r) => counts[r]));
  const rowHeight = 26;
  return (
    <svg
      className="overview-bars"
      viewBox={`0 0 320 ${rowHeight * REPORT_RESULTS.length}`}
      role="presentation"
      aria-hidden="true"
      focusable="false"
    >
      {REPORT_RESULTS.map((result, i) => {
        const width = Math.round((counts[result] / max) * 200);
        const y = i * rowHeight;
        return (
          <g key={result}>
            <text x="0" y={y + 17} className="overview-bar-label">
              {RESULT_LABELS[result]}
            </text>
            <rect
              x="70"
              y={y + 4}
              width={Math.max(width, counts[result] > 0 ? 2 : 0)}
              height="16"
              rx="3"
              className={`bar-${result}`}
            />
            <text x={76 + width} y={y + 17} className="overview-bar-count">
              {counts[result]}
            </text>
          </g>
        );
      })}
    </svg>
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

function projectName(project: string): string {
  return project === '' ? 'No project' : project;
}

function OverviewTable({ overview }: { overview: CacheOverview }) {
  const rows = [{ name: 'All matching reports', counts: overview.counts }].concat(
    overview.projects.map((p) => ({ name: projectName(p.project), counts: p })),
  );
  return (
    <table className="visually-hidden">
      <caption>Reports per result, for the current filters and per project</caption>
      <thead>
        <tr>
          <th scope="col">Project</th>
          {REPORT_RESULTS.map((r) => (
            <th key={r} scope="col">
              {RESULT_LABELS[r]}
            </th>
          ))}
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <th scope="row">{row.name}</th>
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
          Overview
        </h2>
        <span className="muted" title={new Date(data.lastFullSyncAt).toLocaleString()}>
          From the offline copy, synced {ageOf(data.lastFullSyncAt)} ago
        </span>
        <button
          type="button"
          className="button small"
          aria-expanded={open}
          aria-controls="overview-body"
          onClick={toggle}
        >
          {open ? 'Hide overview' : 'Show overview'}
        </button>
      </div>
      {open && (
        <div id="overview-body" className="overview-body">
          <div className="overview-totals">
            <p className="overview-total">
              <strong>{totalOf(data.counts)}</strong> matching reports
              {data.counts.other > 0 && (
                <span className="muted"> ({data.counts.other} without a result)</span>
              )}
              {/* Drawn instead of the bars in a short window (styles.css); the table says it to screen readers. */}
              <span className="overview-summary" aria-hidden="true">
                {REPORT_RESULTS.map((r) => ` · ${data.counts[r]} ${RESULT_LABELS[r].toLowerCase()}`).join('')}
              </span>
            </p>
            <ResultBars counts={data.counts} />
          </div>
          {data.projects.length > 0 && (
            <div className="overview-projects-part">
              <ul id="overview-projects" className="overview-projects" aria-hidden="true">
                <li className="overview-legend muted">
                  <span>Project</span>
                  <span />
                  <span>good / decent / bad</span>
                </li>
                {projectsToDraw(data.projects, allProjects).map((p) => (
                  <li key={p.project}>
                    <span className="overview-project-name">{projectName(p.project)}</span>
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
                    ? `Show the ${PROJECTS_DRAWN} largest projects`
                    : `Show all ${data.projects.length} projects`}
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
