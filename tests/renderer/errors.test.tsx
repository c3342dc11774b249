import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MESSAGES, ERROR_KINDS, appError, type ErrorKind } from '../../shared/errors';
import { ErrorView, RETRYABLE_KINDS } from '../../renderer/src/components/ErrorView';
import { CallError, call } from '../../renderer/src/lib/bridge';
import { installFakeBridge, failWith } from './helpers';

afterEach(cleanup);

describe('ErrorView shows every error kind', () => {
  it.each(ERROR_KINDS.map((kind) => [kind]))(
    '%s: its sentence, and retry only where retrying can help',
    (kind: ErrorKind) => {
      const onRetry = vi.fn();
      render(<ErrorView error={appError(kind)} onRetry={onRetry} onSessionOnly={() => {}} />);
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain(DEFAULT_MESSAGES[kind]);
      expect(alert.textContent).not.toMatch(/at \w+ \(|Error:/);
      const retry = within(alert).queryByRole('button', { name: 'Retry' });
      if (RETRYABLE_KINDS.includes(kind)) {
        expect(retry).not.toBeNull();
        fireEvent.click(retry!);
        expect(onRetry).toHaveBeenCalledOnce();
      } else {
        expect(retry).toBeNull();
      }
      const sessionOnly = within(alert).queryByRole('button', { name: 'Use for this session only' });
      expect(sessionOnly !== null).toBe(kind === 'keychain_unavailable');
    },
  );

  it('sends rejected keys to Keys & profiles and a missing profile to set-up', () => {
    for (const kind of ['unauthorized', 'forbidden', 'insecure_url'] as const) {
      const { unmount } = render(<ErrorView error={appError(kind)} />);
      expect(screen.getByRole('link', { name: 'Open Keys & profiles' }).getAttribute('href')).toBe(
        '#/profiles',
      );
      unmount();
    }
    render(<ErrorView error={appError('no_profile')} />);
    expect(screen.getByRole('link', { name: 'Add a profile' }).getAttribute('href')).toBe('#/welcome');
  });

  it('lists the field errors of a validation error', () => {
    render(
      <ErrorView
        error={appError('validation', undefined, {
          fieldErrors: { url: ['The url has already been taken.'] },
        })}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('url: The url has already been taken.');
  });

  it('states a rate limit’s wait once, counts it down on Retry, and enables Retry when it is over', () => {
    vi.useFakeTimers();
    try {
      const onRetry = vi.fn();
      const message =
        'The Report Service is receiving too many requests and asked to wait 3 seconds (HTTP 429). Try again after that.';
      render(
        <ErrorView error={appError('rate_limited', message, { retryAfterSeconds: 3 })} onRetry={onRetry} />,
      );
      const alert = screen.getByRole('alert');
      expect(alert.textContent!.match(/3 seconds/g)).toHaveLength(1);
      const retry = within(alert).getByRole('button') as HTMLButtonElement;
      expect(retry.textContent).toBe('Retry in 3 s');
      expect(retry.disabled).toBe(true);
      act(() => vi.advanceTimersByTime(1000));
      expect(retry.textContent).toBe('Retry in 2 s');
      act(() => vi.advanceTimersByTime(2000));
      expect(retry.textContent).toBe('Retry');
      expect(retry.disabled).toBe(false);
      fireEvent.click(retry);
      expect(onRetry).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it('turns anything thrown that is not an AppError into the internal sentence, without its stack', () => {
    render(<ErrorView error={new TypeError('x is undefined at foo.js:1')} />);
    expect(screen.getByRole('alert').textContent).toContain(DEFAULT_MESSAGES.internal);
    expect(screen.getByRole('alert').textContent).not.toContain('foo.js');
  });
});

describe('call()', () => {
  it('returns the value of an ok result', async () => {
    installFakeBridge({ 'cache:projects': () => ['a', 'b'] });
    await expect(call('cache:projects')).resolves.toEqual(['a', 'b']);
  });

  it('throws a CallError carrying the AppError of a failed result', async () => {
    installFakeBridge({
      'reports:create': () =>
        failWith({ kind: 'validation', message: 'Bad url.', fieldErrors: { url: ['Bad url.'] } }),
    });
    const thrown = await call('reports:create', { url: 'https://x.test' }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CallError);
    expect((thrown as CallError).kind).toBe('validation');
    expect((thrown as CallError).message).toBe('Bad url.');
    expect((thrown as CallError).fieldErrors).toEqual({ url: ['Bad url.'] });
  });

  it('explains a missing or broken bridge as a sentence', async () => {
    delete window.reportDesk;
    const missing = (await call('profiles:list').catch((e: unknown) => e)) as CallError;
    expect(missing.kind).toBe('internal');
    expect(missing.message).toMatch(/could not connect to its core/);
    window.reportDesk = { invoke: () => Promise.reject(new Error('socket closed')), on: () => () => {} };
    const broken = (await call('profiles:list').catch((e: unknown) => e)) as CallError;
    expect(broken.kind).toBe('internal');
    expect(broken.message).not.toContain('socket');
  });
});

describe('the app words what the core leaves to each front end', () => {
  it('points a profile without a stored key to Keys & profiles', async () => {
    installFakeBridge({
      'reports:list': () =>
        failWith({
          kind: 'unauthorized',
          message: 'No API key is stored for the profile “Work”. Store its key again.',
          reason: 'no_key_stored',
          details: { profileName: 'Work' },
        }),
    });
    const thrown = await call('reports:list', {}).catch((e: unknown) => e);
    render(<ErrorView error={thrown} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      'No API key is stored for the profile “Work”. Add it in Keys & profiles.',
    );
    expect(within(alert).getByRole('link', { name: 'Open Keys & profiles' })).not.toBeNull();
  });

  it('points a view with nothing cached to “Make available offline”, keeping why the service is out of reach', async () => {
    const cause = 'The Report Service could not be reached (connection refused).';
    installFakeBridge({
      'reports:get': () =>
        failWith({
          kind: 'offline',
          message: `${cause} Nothing for this is in the offline cache yet; once the service can be reached, make the reports available offline.`,
          reason: 'nothing_cached',
          details: { cause },
        }),
    });
    const thrown = (await call('reports:get', { id: '3' }).catch((e: unknown) => e)) as CallError;
    expect(thrown.kind).toBe('offline');
    expect(thrown.message).toBe(
      `${cause} Nothing for this view is in the offline cache yet; once the service can be reached, use “Make available offline”.`,
    );
  });
});
