import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_KINDS, appError, englishOf, type ErrorKind } from '../../shared/errors';
import { ErrorView, RETRYABLE_KINDS } from '../../renderer/src/components/ErrorView';
import { CallError, call } from '../../renderer/src/lib/bridge';
import { LanguageProvider, showLanguage } from '../../renderer/src/lib/i18n';
import { installFakeBridge, failWith } from './helpers';

afterEach(cleanup);

/** The app's words around what is rendered (English: tests/renderer/setup.ts). */
const inApp = (ui: ReactNode) => render(<LanguageProvider>{ui}</LanguageProvider>);

describe('ErrorView shows every error kind', () => {
  it.each(ERROR_KINDS.map((kind) => [kind]))(
    '%s: its sentence, and retry only where retrying can help',
    (kind: ErrorKind) => {
      const onRetry = vi.fn();
      inApp(<ErrorView error={appError(kind)} onRetry={onRetry} onSessionOnly={() => {}} />);
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain(englishOf({ code: kind }));
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
      const { unmount } = inApp(<ErrorView error={appError(kind)} />);
      expect(screen.getByRole('link', { name: 'Open Keys & profiles' }).getAttribute('href')).toBe(
        '#/profiles',
      );
      unmount();
    }
    inApp(<ErrorView error={appError('no_profile')} />);
    expect(screen.getByRole('link', { name: 'Add a profile' }).getAttribute('href')).toBe('#/welcome');
  });

  it('lists the field errors of a validation error as the service sent them, isolated', () => {
    inApp(
      <ErrorView
        error={appError('http.validation', {}, { fieldErrors: { url: ['La url ya está en uso.'] } })}
      />,
    );
    const item = screen.getByRole('alert').querySelector('li')!;
    expect(item.textContent).toBe('url: La url ya está en uso.');
    expect([...item.querySelectorAll('bdi')].map((part) => part.textContent)).toEqual([
      'url',
      'La url ya está en uso.',
    ]);
  });

  it('shows what the service said as sent, isolated from the sentence around it', () => {
    inApp(<ErrorView error={appError('http.server_error_said', { status: 502, said: 'بوابة سيئة' })} />);
    expect(screen.getByRole('alert').textContent).toContain(
      'The Report Service had an internal problem (HTTP 502, "\u2068بوابة سيئة\u2069"). Try again in a moment.',
    );
  });

  it('words an error from its code in the language of the window', async () => {
    await act(() => showLanguage('en-XA'));
    try {
      inApp(<ErrorView error={appError('http.report_not_found', { id: '12' })} />);
      const text = screen.getByRole('alert').querySelector('.error-message')!.textContent!;
      expect(text).toMatch(/^\[Ŕéƥöŕţ 12 ŵáš ñöţ ƒöûñð \(ĤŢŢƤ 404\)/);
      expect(text).not.toContain('Report 12 was not found');
    } finally {
      await act(() => showLanguage('en'));
    }
  });

  it('states a rate limit’s wait once, counts it down on Retry, and enables Retry when it is over', () => {
    vi.useFakeTimers();
    try {
      const onRetry = vi.fn();
      inApp(
        <ErrorView
          error={appError('http.rate_limited_wait', { seconds: 3 }, { retryAfterSeconds: 3 })}
          onRetry={onRetry}
        />,
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
    inApp(<ErrorView error={new TypeError('x is undefined at foo.js:1')} />);
    expect(screen.getByRole('alert').textContent).toContain(englishOf({ code: 'internal' }));
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
        failWith(appError('http.validation', {}, { fieldErrors: { url: ['Bad url.'] } })),
    });
    const thrown = await call('reports:create', { url: 'https://x.test' }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CallError);
    expect((thrown as CallError).kind).toBe('validation');
    expect((thrown as CallError).appError.code).toBe('http.validation');
    expect((thrown as CallError).fieldErrors).toEqual({ url: ['Bad url.'] });
  });

  it('explains a missing or broken bridge as a sentence', async () => {
    delete window.reportDesk;
    const missing = (await call('profiles:list').catch((e: unknown) => e)) as CallError;
    expect(missing.kind).toBe('internal');
    inApp(<ErrorView error={missing} />);
    expect(screen.getByRole('alert').textContent).toMatch(/could not connect to its core/);
    window.reportDesk = { invoke: () => Promise.reject(new Error('socket closed')), on: () => () => {} };
    const broken = (await call('profiles:list').catch((e: unknown) => e)) as CallError;
    expect(broken.kind).toBe('internal');
    expect(broken.message).not.toContain('socket');
    expect(broken.appError.code).toBe('internal');
  });
});

describe('the app words what the core leaves to each front end', () => {
  it('points a profile without a stored key to Keys & profiles', async () => {
    installFakeBridge({
      'reports:list': () =>
        failWith(
          appError(
            'profile.no_key_stored',
            { profile: 'Work' },
            { reason: 'no_key_stored', details: { profileName: 'Work' } },
          ),
        ),
    });
    const thrown = await call('reports:list', {}).catch((e: unknown) => e);
    inApp(<ErrorView error={thrown} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      'No API key is stored for the profile “Work”. Add it in Keys & profiles.',
    );
    expect(within(alert).getByRole('link', { name: 'Open Keys & profiles' })).not.toBeNull();
  });

  it('points a view with nothing cached to “Make available offline”, keeping why the service is out of reach', async () => {
    const cause = appError('http.unreachable', { host: 'reports.example.com', cause: 'refused' });
    installFakeBridge({
      'reports:get': () =>
        failWith(appError('offline.nothing_cached', {}, { reason: 'nothing_cached', details: { cause } })),
    });
    const thrown = (await call('reports:get', { id: '3' }).catch((e: unknown) => e)) as CallError;
    expect(thrown.kind).toBe('offline');
    inApp(<ErrorView error={thrown} />);
    expect(screen.getByRole('alert').querySelector('.error-message')!.textContent).toBe(
      `${cause.message} Nothing for this view is in the offline copy yet; once the service can be reached, use “Make available offline”.`,
    );
  });
});
