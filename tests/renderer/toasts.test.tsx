import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toasts } from '../../renderer/src/components/Shell';
import { ToastProvider, useToasts } from '../../renderer/src/lib/appState';
import { LanguageProvider } from '../../renderer/src/lib/i18n';

const api: { show?: ReturnType<typeof useToasts>['show'] } = {};
function Probe() {
  const { show: showToast } = useToasts();
  useEffect(() => {
    api.show = showToast;
  });
  return null;
}
const show: ReturnType<typeof useToasts>['show'] = (text, tone) => api.show!(text, tone);

function renderToasts() {
  render(
    <ToastProvider>
      <Probe />
      <Toasts />
    </ToastProvider>,
    { wrapper: LanguageProvider },
  );
  return document.querySelector('.toasts') as HTMLElement;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const message = (text: string) => screen.queryByText(text);

describe('Toasts', () => {
  it('live regions exist before any message, and messages carry no role of their own', () => {
    const region = renderToasts();
    const status = region.querySelector('[role="status"]')!;
    const alert = region.querySelector('[role="alert"]')!;
    expect(status.textContent).toBe('');
    expect(alert.textContent).toBe('');
    act(() => show('Saved.'));
    act(() => show('It failed.', 'error'));
    expect(status.textContent).toContain('Saved.');
    expect(alert.textContent).toContain('It failed.');
    expect(message('Saved.')!.closest('.toast')!.getAttribute('role')).toBeNull();
  });

  it('information goes away on its own, but not while the pointer is on the messages', () => {
    const region = renderToasts();
    act(() => show('First.'));
    act(() => vi.advanceTimersByTime(6_100));
    expect(message('First.')).toBeNull();

    act(() => show('Second.'));
    act(() => vi.advanceTimersByTime(3_000));
    fireEvent.mouseEnter(region);
    act(() => vi.advanceTimersByTime(60_000));
    expect(message('Second.')).not.toBeNull();
    fireEvent.mouseLeave(region);
    // The clock resumes where it stopped: about 3 of the 6 seconds are left.
    act(() => vi.advanceTimersByTime(2_000));
    expect(message('Second.')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1_100));
    expect(message('Second.')).toBeNull();
  });

  it('pauses while the keyboard focus is on a message', () => {
    renderToasts();
    act(() => show('Focused.'));
    const dismiss = screen.getByRole('button', { name: 'Dismiss message' });
    act(() => dismiss.focus());
    act(() => vi.advanceTimersByTime(60_000));
    expect(message('Focused.')).not.toBeNull();
    act(() => dismiss.blur());
    act(() => vi.advanceTimersByTime(6_100));
    expect(message('Focused.')).toBeNull();
  });

  it('errors stay until dismissed', () => {
    renderToasts();
    act(() => show('The report could not be deleted.', 'error'));
    act(() => vi.advanceTimersByTime(10 * 60_000));
    expect(message('The report could not be deleted.')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(message('The report could not be deleted.')).toBeNull();
  });
});
