import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FieldTable } from '../../renderer/src/components/FieldValue';
import { otherFields } from '../../renderer/src/screens/ReportDetail';
import { LanguageProvider } from '../../renderer/src/lib/i18n';

afterEach(cleanup);

describe('unknown fields', () => {
  it('are the fields the detail screen does not lay out itself', () => {
    const report = {
      id: '1',
      url: 'https://a.test',
      result: 'good' as const,
      privacy: 0 as const,
      score: 91,
      owner: { name: 'Ann' },
    };
    expect(otherFields(report)).toEqual({ score: 91, owner: { name: 'Ann' } });
  });

  it('render nested objects and arrays as readable lists, never as raw JSON', () => {
    const { container } = render(
      <FieldTable
        fields={{
          page_title: 'Home',
          score: 91,
          is_mobile: false,
          notes: null,
          tags: ['seo', 'speed'],
          metrics: { first_paint: 1.2, audits: [{ name: 'images', passed: true }] },
          history: [],
        }}
      />,
      { wrapper: LanguageProvider },
    );
    const text = container.textContent ?? '';
    expect(text).not.toContain('{');
    expect(text).not.toContain('"');
    expect(screen.getByText('Page title')).toBeTruthy();
    expect(screen.getByText('Home')).toBeTruthy();
    expect(screen.getByText('91')).toBeTruthy();
    expect(screen.getByText('No')).toBeTruthy();
    expect(screen.getByText('None')).toBeTruthy();
    expect(screen.getByText('Empty list')).toBeTruthy();
    // Arrays become list items; nested objects become nested definition lists.
    const tags = screen.getByText('seo').closest('ol');
    expect(tags?.querySelectorAll('li')).toHaveLength(2);
    const firstPaint = screen.getByText('First paint');
    expect(firstPaint.closest('dl')?.className).toContain('fields-nested');
    expect(screen.getByText('images').closest('dl')?.closest('ol')).not.toBeNull();
    expect(screen.getByText('Yes')).toBeTruthy();
  });

  it('show ISO dates in the local format with the exact time on hover', () => {
    render(<FieldTable fields={{ created_at: '2024-03-05T14:30:00Z' }} />, { wrapper: LanguageProvider });
    const time = screen.getByText((_, el) => el?.tagName === 'TIME');
    expect(time.getAttribute('dateTime')).toBe('2024-03-05T14:30:00Z');
    expect(time.getAttribute('title')).toMatch(/2024/);
  });
});
