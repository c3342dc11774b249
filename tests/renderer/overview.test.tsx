/**
 * The overview never takes the list's room: the chart draws the largest projects until the
 * user asks for all, while the screen readers' table always holds every project. (How it
 * shrinks in a short window is CSS, checked in Chromium: tests/e2e/exportBulkLinks.spec.ts.)
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CacheOverview } from '../../shared/contract';
import { OverviewPanel, PROJECTS_DRAWN } from '../../renderer/src/components/OverviewPanel';
import { PROFILE, installFakeBridge, renderWithApp } from './helpers';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const project = (name: string, good: number, decent: number, bad: number) => ({
  project: name,
  good,
  decent,
  bad,
  other: 0,
});

/** Seven projects in the cache's order (by name), their sizes out of that order. */
const OVERVIEW: CacheOverview = {
  counts: { good: 75, decent: 83, bad: 72, other: 3 },
  projects: [
    project('', 10, 12, 12),
    project('blog', 4, 15, 13),
    project('careers', 11, 10, 10),
    project('docs', 1, 0, 0),
    project('marketing-site', 2, 2, 1),
    project('shop', 25, 5, 12),
    project('support', 3, 17, 5),
  ],
  lastFullSyncAt: '2025-01-01T10:00:00.000Z',
};

async function renderOverview(overview: CacheOverview) {
  installFakeBridge({ 'cache:overview': () => overview });
  renderWithApp(<OverviewPanel profileId={PROFILE.id} filters={{ search: '' }} />);
  return screen.findByRole('region', { name: 'Overview' });
}

/** The project names the chart draws, in its order. */
function drawnProjects(region: HTMLElement): string[] {
  return [...region.querySelectorAll('.overview-projects .overview-project-name')].map(
    (n) => n.textContent ?? '',
  );
}

describe('Overview', () => {
  it(`draws the ${PROJECTS_DRAWN} largest projects, largest first, and all of them on request`, async () => {
    const region = await renderOverview(OVERVIEW);
    expect(drawnProjects(region)).toEqual(['shop', 'No project', 'blog', 'careers']);

    const more = within(region).getByRole('button', { name: 'Show all 7 projects' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    const controlled = document.getElementById(more.getAttribute('aria-controls') ?? '');
    expect(controlled?.classList.contains('overview-projects')).toBe(true);

    fireEvent.click(more);
    expect(drawnProjects(region)).toEqual([
      'shop',
      'No project',
      'blog',
      'careers',
      'support',
      'marketing-site',
      'docs',
    ]);
    const fewer = within(region).getByRole('button', { name: `Show the ${PROJECTS_DRAWN} largest projects` });
    expect(fewer.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(fewer);
    expect(drawnProjects(region)).toHaveLength(PROJECTS_DRAWN);
  });

  it('keeps every project in the screen readers’ table, whatever the chart draws', async () => {
    const region = await renderOverview(OVERVIEW);
    const table = within(region).getByRole('table', { name: /Reports per result/ });
    const rowNames = within(table)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    expect(rowNames).toEqual([
      'All matching reports',
      'No project',
      'blog',
      'careers',
      'docs',
      'marketing-site',
      'shop',
      'support',
    ]);
  });

  it('offers no button when every project is drawn already', async () => {
    const region = await renderOverview({
      ...OVERVIEW,
      projects: OVERVIEW.projects.slice(0, PROJECTS_DRAWN),
    });
    expect(drawnProjects(region)).toHaveLength(PROJECTS_DRAWN);
    expect(within(region).queryByRole('button', { name: /projects/ })).toBeNull();
  });

  it('has the one-line count summary a short window draws instead of the bars, hidden from screen readers', async () => {
    const region = await renderOverview(OVERVIEW);
    const total = region.querySelector('.overview-total');
    expect(total?.textContent).toBe(
      '233 matching reports (3 without a result) · 75 good · 83 decent · 72 bad',
    );
    const summary = region.querySelector('.overview-summary');
    expect(summary?.getAttribute('aria-hidden')).toBe('true');
  });
});
