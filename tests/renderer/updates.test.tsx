/**
 * Settings › Updates and the ready bar, against a fake window.reportDesk answering the
 * `updates:*` channels with the states the core's UpdateController produces.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../shared/contract';
import { Toasts } from '../../renderer/src/components/Shell';
import { UpdateReadyBar } from '../../renderer/src/components/UpdateReadyBar';
import { UpdatesSettings } from '../../renderer/src/components/UpdatesSettings';
import { failureSentence, waitingSentence } from '../../renderer/src/lib/updateWords';
import { appError } from '../../shared/errors';
import { currentWords } from '../../renderer/src/lib/i18n';
import { failWith, installFakeBridge, renderWithApp, type FakeHandlers } from './helpers';

afterEach(cleanup);

const IDLE: UpdateStatus = {
  managed: true,
  unmanagedReason: null,
  currentVersion: '1.0.0',
  preferences: { automatic: true, channel: 'latest' },
  lastCheckedAt: '2026-11-25T10:00:00.000Z',
  phase: 'idle',
  update: null,
  downloadPercent: null,
  failure: null,
  install: 'on-quit',
  restartWaitingFor: null,
};
const READY: UpdateStatus = {
  ...IDLE,
  phase: 'ready',
  update: { version: '1.2.0', releaseDate: '2026-11-20T10:00:00.000Z', releaseNotes: 'Faster lists.' },
};

/** The bar (the page has other live regions: the announcer, the toasts). */
const findBar = async () => {
  await waitFor(() => expect(document.querySelector('.banner-update')).not.toBeNull());
  const bar = document.querySelector<HTMLElement>('.banner-update')!;
  expect(bar.getAttribute('role')).toBe('status');
  return bar;
};
const noBar = () => document.querySelector('.banner-update') === null;

const bridgeWith = (status: UpdateStatus, handlers: FakeHandlers = {}) =>
  installFakeBridge({ 'updates:status': () => status, ...handlers });

describe('Settings › Updates', () => {
  it('shows the version, when it last checked, automatic checks and the channel', async () => {
    bridgeWith(IDLE);
    renderWithApp(<UpdatesSettings />);
    expect(await screen.findByText('ReportDesk is up to date.')).toBeTruthy();
    expect(screen.getByText('1.0.0')).toBeTruthy();
    expect(screen.getByText('Last checked').nextElementSibling?.querySelector('time')?.dateTime).toBe(
      '2026-11-25T10:00:00.000Z',
    );
    const automatic = screen.getByRole('checkbox', { name: 'Check for updates automatically' });
    expect((automatic as HTMLInputElement).checked).toBe(true);
    expect(automatic.getAttribute('aria-describedby')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Channel' }) as HTMLSelectElement).value).toBe('latest');
  });

  it('turns automatic checks off and changes the channel through updates:setPreferences', async () => {
    let current = IDLE;
    const bridge = bridgeWith(IDLE, {
      'updates:setPreferences': (changes) => {
        current = { ...current, preferences: { ...current.preferences, ...changes } };
        return current;
      },
    });
    renderWithApp(<UpdatesSettings />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Check for updates automatically' }));
    await waitFor(() =>
      expect((screen.getByRole('checkbox', { name: /automatically/ }) as HTMLInputElement).checked).toBe(
        false,
      ),
    );
    fireEvent.change(screen.getByRole('combobox', { name: 'Channel' }), { target: { value: 'beta' } });
    await waitFor(() => expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('beta'));
    expect(bridge.callsTo('updates:setPreferences')).toEqual([{ automatic: false }, { channel: 'beta' }]);
  });

  it('"Check now" says it is checking, then what it found', async () => {
    let answer: (status: UpdateStatus) => void = () => {};
    const bridge = bridgeWith(
      { ...IDLE, lastCheckedAt: null },
      {
        'updates:check': () => new Promise<UpdateStatus>((resolve) => (answer = resolve)),
      },
    );
    renderWithApp(<UpdatesSettings />);
    expect(await screen.findByText('ReportDesk has not checked for updates yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Check now' }));
    const button = await screen.findByRole('button', { name: 'Checking…' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answer(READY));
    expect(
      await screen.findByText('ReportDesk 1.2.0 is downloaded and verified; restart to update.'),
    ).toBeTruthy();
    expect(bridge.callsTo('updates:check')).toHaveLength(1);
  });

  it('a failed check is one sentence, and an error from the core is shown', async () => {
    bridgeWith(
      { ...IDLE, failure: 'signature_invalid' },
      {
        'updates:check': () => failWith(appError('lock.busy', { store: 'update_settings', seconds: 1 })),
      },
    );
    renderWithApp(<UpdatesSettings />);
    const line = await screen.findByText(failureSentence(currentWords(), 'signature_invalid'));
    expect(line.getAttribute('role')).toBe('status');
    expect(line.textContent).toBe(
      'An update was offered that is not signed with the ReportDesk release key, so ReportDesk refused it and downloaded nothing.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(
      await screen.findByText(
        'The update settings are being changed by another ReportDesk window, which has not finished within 1 second. Nothing was changed; try again in a moment.',
      ),
    ).toBeTruthy();
  });

  it('shows the release notes as text: markup is never rendered', async () => {
    const notes = '<img src=x onerror="window.pwned=1"><b>Bold</b>\nSecond line';
    bridgeWith({ ...READY, update: { ...READY.update!, releaseNotes: notes } });
    const { container } = renderWithApp(<UpdatesSettings />);
    const heading = await screen.findByRole('heading', { name: 'What’s new in 1.2.0' });
    const section = heading.closest('section')!;
    expect(section.querySelector('.release-notes-text')?.textContent).toBe(notes);
    expect(container.querySelector('img, b')).toBeNull();
  });

  it('follows updates:changed events (the download’s progress)', async () => {
    const bridge = bridgeWith(IDLE);
    renderWithApp(<UpdatesSettings />);
    await screen.findByText('ReportDesk is up to date.');
    act(() => bridge.emit('updates:changed', { ...READY, phase: 'downloading', downloadPercent: 40 }));
    expect(await screen.findByText('Downloading ReportDesk 1.2.0… 40%')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Check now' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('where nothing updates itself, says who does, with no controls', async () => {
    bridgeWith({ ...IDLE, managed: false, unmanagedReason: 'not_installed', currentVersion: null });
    renderWithApp(<UpdatesSettings />);
    expect(
      await screen.findByText(
        'Updates are managed by the installed ReportDesk app; this window does not update itself.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Check now' })).toBeNull();
  });
});

describe('the ready bar', () => {
  it('says "ReportDesk <version> is ready — Restart to update" and restarts only when asked', async () => {
    const bridge = bridgeWith(READY, {
      'updates:restart': () => ({ ...READY, phase: 'installing' }),
    });
    renderWithApp(<UpdateReadyBar />);
    const bar = await findBar();
    expect(bar.textContent).toContain('ReportDesk 1.2.0 is ready');
    expect(bar.textContent).toBe(
      'ReportDesk 1.2.0 is ready — restart to update now, or it is installed when you quit ReportDesk.Restart to updateLater',
    );
    expect(bridge.callsTo('updates:restart')).toEqual([]);
    fireEvent.click(within(bar).getByRole('button', { name: 'Restart to update' }));
    await waitFor(() => expect(bar.textContent).toContain('restarting…'));
    expect(bridge.callsTo('updates:restart')).toEqual([{ cancelWork: false }]);
  });

  it('waits while work runs; offers to cancel a sync or export, or not to restart', async () => {
    const waiting = { ...READY, restartWaitingFor: ['sync' as const, 'changes' as const] };
    const bridge = bridgeWith(READY, {
      'updates:restart': (input) =>
        input?.cancelWork ? { ...waiting, restartWaitingFor: ['changes' as const] } : waiting,
      'updates:cancelRestart': () => READY,
    });
    renderWithApp(<UpdateReadyBar />);
    fireEvent.click(await screen.findByRole('button', { name: 'Restart to update' }));
    expect(await screen.findByText(`— ${waitingSentence(currentWords(), ['sync', 'changes'])}`)).toBeTruthy();
    expect(waitingSentence(currentWords(), ['sync', 'changes'])).toBe(
      'ReportDesk restarts as soon as it is no longer busy: reports are made available offline and your changes are sent.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel it and restart' }));
    // Changes being sent cannot be cancelled from here: only waiting, or not restarting, is left.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel it and restart' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Don’t restart' }));
    expect(await screen.findByRole('button', { name: 'Restart to update' })).toBeTruthy();
    expect(bridge.callsTo('updates:restart')).toEqual([{ cancelWork: false }, { cancelWork: true }]);
    expect(bridge.callsTo('updates:cancelRestart')).toHaveLength(1);
  });

  it('"Later" hides it until another version is ready', async () => {
    const bridge = bridgeWith(READY);
    renderWithApp(<UpdateReadyBar />);
    fireEvent.click(await screen.findByRole('button', { name: 'Later' }));
    expect(noBar()).toBe(true);
    act(() => bridge.emit('updates:changed', { ...READY, update: { ...READY.update!, version: '1.3.0' } }));
    expect((await findBar()).textContent).toContain('ReportDesk 1.3.0 is ready');
  });

  it('deb and rpm: says it asks for the administrator, and asks before restarting', async () => {
    const bridge = bridgeWith(
      { ...READY, install: 'asks-admin' },
      {
        'updates:restart': () => ({ ...READY, install: 'asks-admin', phase: 'installing' }),
      },
    );
    renderWithApp(<UpdateReadyBar />);
    expect((await findBar()).textContent).toContain('asks for your administrator password');
    fireEvent.click(screen.getByRole('button', { name: 'Restart to update' }));
    const dialog = await screen.findByRole('dialog', { name: 'Install ReportDesk 1.2.0?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bridge.callsTo('updates:restart')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Restart to update' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Install and restart' }),
    );
    await waitFor(() => expect(bridge.callsTo('updates:restart')).toEqual([{ cancelWork: false }]));
  });

  it('is not there without a downloaded update, or where nothing updates itself', async () => {
    for (const status of [
      IDLE,
      { ...READY, phase: 'downloading' as const, downloadPercent: 10 },
      { ...READY, managed: false, unmanagedReason: 'not_installed' as const },
    ]) {
      const bridge = bridgeWith(status);
      const { unmount } = renderWithApp(<UpdateReadyBar />);
      await waitFor(() => expect(bridge.callsTo('updates:status')).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(noBar()).toBe(true);
      unmount();
    }
  });

  it('a restart the core refuses is an error message', async () => {
    bridgeWith(READY, {
      'updates:restart': () => failWith(appError('lock.busy', { store: 'update_settings', seconds: 10 })),
    });
    renderWithApp(
      <>
        <UpdateReadyBar />
        <Toasts />
      </>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Restart to update' }));
    expect(
      await screen.findByText(
        'The update settings are being changed by another ReportDesk window, which has not finished within 10 seconds. Nothing was changed; try again in a moment.',
      ),
    ).toBeTruthy();
  });
});
