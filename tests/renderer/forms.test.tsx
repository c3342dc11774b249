import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProfileView, ReportResult as SourcedReport } from '../../shared/contract';
import { ProfileForm } from '../../renderer/src/components/ProfileForm';
import { queryKeys } from '../../renderer/src/lib/queries';
import { CreateReport, PrivacyForm } from '../../renderer/src/screens/ReportForms';
import { englishOf } from '../../shared/errors';

const PASSWORD_REQUIRED = englishOf({ code: 'report_password.required' });
import { OFFLINE, ONLINE, PROFILE, failWith, installFakeBridge, renderWithApp } from './helpers';

afterEach(cleanup);
beforeEach(() => {
  window.location.hash = '#/reports/new';
});

const created = { id: '77', url: 'https://shop.example.com/', result: null, privacy: 2 as const };

function typeInto(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('Create report', () => {
  it('checks the URL as it is typed', async () => {
    installFakeBridge({ 'connectivity:status': () => ONLINE });
    renderWithApp(<CreateReport profileId="p1" />);
    const url = screen.getByLabelText('URL to analyse');
    expect(url.getAttribute('aria-invalid')).toBeNull();
    typeInto('URL to analyse', 'example');
    expect(screen.getByText('Enter a full address starting with http:// or https://.')).toBeTruthy();
    expect(url.getAttribute('aria-invalid')).toBe('true');
    typeInto('URL to analyse', 'ftp://example.com');
    expect(screen.getByText('Only http:// and https:// addresses can be analysed.')).toBeTruthy();
    typeInto('URL to analyse', 'https://example.com');
    expect(url.getAttribute('aria-invalid')).toBeNull();
  });

  it('an invalid submit focuses the first invalid field and says how many need attention', async () => {
    const bridge = installFakeBridge({ 'connectivity:status': () => ONLINE });
    renderWithApp(<CreateReport profileId="p1" />);
    const announcer = () => document.querySelector('[data-live-region]')!.textContent;
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Create report' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
    fireEvent.click(screen.getByLabelText(/^Password/));
    fireEvent.click(screen.getByRole('button', { name: 'Create report' }));
    expect(document.activeElement).toBe(screen.getByLabelText('URL to analyse'));
    expect(announcer()).toMatch(/^2 fields need attention\./);
    typeInto('URL to analyse', 'https://shop.example.com/');
    fireEvent.click(screen.getByRole('button', { name: 'Create report' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Report password'));
    expect(announcer()).toMatch(/^1 field needs attention\./);
    // The password error is tied to its field for screen readers.
    const password = screen.getByLabelText('Report password');
    const described = password.getAttribute('aria-describedby')!.split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent).join(' ')).toContain(
      PASSWORD_REQUIRED,
    );
    expect(bridge.callsTo('reports:create')).toHaveLength(0);
  });

  it('ties a radio group’s error from the service to every radio button', async () => {
    installFakeBridge({
      'connectivity:status': () => ONLINE,
      'reports:create': () =>
        failWith({ kind: 'validation', fieldErrors: { privacy: ['The selected privacy is invalid.'] } }),
    });
    renderWithApp(<CreateReport profileId="p1" />);
    typeInto('URL to analyse', 'https://shop.example.com/');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Create report' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create report' }));
    await screen.findByText('The selected privacy is invalid.');
    for (const radio of screen.getAllByRole('radio')) {
      expect(radio.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(radio.getAttribute('aria-describedby')!)?.textContent).toBe(
        'The selected privacy is invalid.',
      );
    }
    await waitFor(() => expect(document.activeElement).toBe(screen.getAllByRole('radio')[0]));
  });

  it('shows a password field for Password and requires it there', async () => {
    const bridge = installFakeBridge({
      'connectivity:status': () => ONLINE,
      'reports:create': () => created,
    });
    renderWithApp(<CreateReport profileId="p1" />);
    typeInto('URL to analyse', 'https://shop.example.com/');
    expect(screen.queryByLabelText('Report password')).toBeNull();
    fireEvent.click(screen.getByLabelText(/^Password/));
    expect(screen.getByLabelText('Report password')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create report' }));
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeTruthy();
    expect(bridge.callsTo('reports:create')).toHaveLength(0);

    typeInto('Report password', 's3cret');
    fireEvent.click(screen.getByRole('button', { name: 'Create report' }));
    await waitFor(() => expect(window.location.hash).toBe('#/reports/77'));
    expect(bridge.callsTo('reports:create')).toEqual([
      { url: 'https://shop.example.com/', privacy: 2, password: 's3cret' },
    ]);
  });

  it('never sends a password for a public report, and shows the new report right away', async () => {
    const bridge = installFakeBridge({
      'connectivity:status': () => ONLINE,
      'reports:create': () => ({ ...created, privacy: 0 }),
    });
    const { client } = renderWithApp(<CreateReport profileId="p1" />);
    typeInto('URL to analyse', ' https://shop.example.com/ ');
    fireEvent.click(screen.getByLabelText(/^Password/));
    typeInto('Report password', 'typed then abandoned');
    fireEvent.click(screen.getByLabelText(/^Public/));
    fireEvent.click(screen.getByRole('button', { name: 'Create report' }));
    await waitFor(() => expect(window.location.hash).toBe('#/reports/77'));
    expect(bridge.callsTo('reports:create')).toEqual([{ url: 'https://shop.example.com/', privacy: 0 }]);
    const cached = client.getQueryData<SourcedReport>(queryKeys.report('p1', '77'));
    expect(cached?.report.url).toBe('https://shop.example.com/');
  });

  it('shows the service’s 422 messages next to their fields', async () => {
    installFakeBridge({
      'connectivity:status': () => ONLINE,
      'reports:create': () =>
        failWith({
          kind: 'validation',
          status: 422,
          message: 'The url has already been taken.',
          fieldErrors: { url: ['The url has already been taken.'], password: ['The password is too short.'] },
        }),
    });
    renderWithApp(<CreateReport profileId="p1" />);
    typeInto('URL to analyse', 'https://taken.example.com');
    fireEvent.click(screen.getByLabelText(/^Password/));
    typeInto('Report password', 'x');
    fireEvent.click(screen.getByRole('button', { name: 'Create report' }));
    const urlError = await screen.findByText('The url has already been taken.');
    const urlInput = screen.getByLabelText('URL to analyse');
    expect(urlInput.getAttribute('aria-describedby')).toContain(urlError.id);
    const pwError = screen.getByText('The password is too short.');
    expect(screen.getByLabelText('Report password').getAttribute('aria-describedby')).toContain(pwError.id);
    // Explained by its fields: no separate general alert repeating it.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(window.location.hash).toBe('#/reports/new');
    // Editing the field clears the service's complaint about it.
    typeInto('URL to analyse', 'https://other.example.com');
    expect(screen.queryByText('The url has already been taken.')).toBeNull();
  });

  it('shows an error no field explains as a sentence with Retry', async () => {
    installFakeBridge({
      'connectivity:status': () => ONLINE,
      'reports:create': () => failWith({ kind: 'server_error' }),
    });
    renderWithApp(<CreateReport profileId="p1" />);
    typeInto('URL to analyse', 'https://a.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Create report' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('internal problem');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('disables creating while offline and says why', async () => {
    installFakeBridge({ 'connectivity:status': () => OFFLINE });
    renderWithApp(<CreateReport profileId="p1" />);
    const button = screen.getByRole('button', { name: 'Create report' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(true));
    // The reason is text on the screen, not a tooltip a disabled button cannot show.
    expect(button.title).toBe('');
    expect(screen.getByRole('note').textContent).toMatch(/offline/);
  });
});

describe('Privacy edit', () => {
  const report = {
    id: '5',
    url: 'https://a.example.com',
    privacy: 0 as const,
    result: 'good' as const,
    results: 1,
  };

  beforeEach(() => {
    window.location.hash = '#/reports/5/privacy';
  });

  it('starts from the report’s privacy and results flag, and requires a password for Password', async () => {
    const bridge = installFakeBridge({ 'connectivity:status': () => ONLINE });
    renderWithApp(<PrivacyForm profileId="p1" report={report} />);
    expect((screen.getByLabelText(/^Public/) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Yes') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByLabelText(/^Password/));
    fireEvent.click(screen.getByRole('button', { name: 'Save privacy' }));
    expect(screen.getByText(PASSWORD_REQUIRED)).toBeTruthy();
    expect(bridge.callsTo('reports:update')).toHaveLength(0);
  });

  it('sends privacy, password and results, updates the report everywhere and goes back to it', async () => {
    const updated = { ...report, privacy: 2 as const, results: 0 };
    const bridge = installFakeBridge({
      'connectivity:status': () => ONLINE,
      'reports:update': () => updated,
    });
    const client = (await import('../../renderer/src/lib/queries')).createQueryClient();
    const listKey = queryKeys.reports('p1', {
      search: '',
      search_by: 'url',
      project: '',
      result: null,
      sort_by: 'id',
      sort: 'desc',
      per_page: 10,
      page: 1,
    });
    client.setQueryData(listKey, {
      reports: [report],
      page: 1,
      perPage: 10,
      total: 1,
      lastPage: 1,
      source: 'network',
      fetchedAt: '',
    });
    renderWithApp(<PrivacyForm profileId="p1" report={report} />, client);
    fireEvent.click(screen.getByLabelText(/^Password/));
    typeInto('Report password', 'pw');
    fireEvent.click(screen.getByLabelText('No'));
    fireEvent.click(screen.getByRole('button', { name: 'Save privacy' }));
    await waitFor(() => expect(window.location.hash).toBe('#/reports/5'));
    expect(bridge.callsTo('reports:update')).toEqual([
      { id: '5', changes: { privacy: 2, password: 'pw', results: 0 } },
    ]);
    expect(client.getQueryData<SourcedReport>(queryKeys.report('p1', '5'))?.report.privacy).toBe(2);
    const list = client.getQueryData<{ reports: { privacy: number }[] }>(listKey);
    expect(list?.reports[0].privacy).toBe(2);
    expect(client.getQueryState(listKey)?.isInvalidated).toBe(true);
  });

  it('shows a 422 on the password next to it', async () => {
    installFakeBridge({
      'connectivity:status': () => ONLINE,
      'reports:update': () =>
        failWith({
          kind: 'validation',
          message: 'Weak.',
          fieldErrors: { password: ['The password must be 4 characters.'] },
        }),
    });
    renderWithApp(<PrivacyForm profileId="p1" report={report} />);
    fireEvent.click(screen.getByLabelText(/^Password/));
    typeInto('Report password', 'pw');
    fireEvent.click(screen.getByRole('button', { name: 'Save privacy' }));
    const message = await screen.findByText('The password must be 4 characters.');
    expect(screen.getByLabelText('Report password').getAttribute('aria-describedby')).toContain(message.id);
  });
});

describe('Profile form', () => {
  const saved: ProfileView = { ...PROFILE, id: 'p9', name: 'Client' };

  function fill() {
    typeInto('Profile name', 'Client');
    typeInto('Base URL', 'https://reports.example.com');
    typeInto('API key', 'key-1234');
  }

  it('tests the connection and names the account it reaches', async () => {
    const bridge = installFakeBridge({
      'profiles:testConnection': () => ({ name: 'Ann Example', email: 'ann@example.com' }),
    });
    renderWithApp(<ProfileForm onSaved={() => {}} />);
    fill();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByText(/Connection works/)).textContent).toContain(
      'Ann Example (ann@example.com)',
    );
    expect(bridge.callsTo('profiles:testConnection')).toEqual([
      { baseUrl: 'https://reports.example.com', apiKey: 'key-1234', allowInsecureHttp: false },
    ]);
  });

  it.each([
    [{ name: 'Ann Example', email: 'ann@example.com' }, 'the key belongs to Ann Example (ann@example.com).'],
    [{ email: 'ann@example.com' }, 'the key belongs to ann@example.com.'],
    [{ id: 7 }, 'the key belongs to account 7.'],
    [{ plan: 'pro' }, 'the key belongs to an account the service did not name.'],
  ])('says whose account %o is in one whole sentence', async (account, sentence) => {
    installFakeBridge({ 'profiles:testConnection': () => account });
    renderWithApp(<ProfileForm onSaved={() => {}} />);
    fill();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByText(/Connection works/)).textContent).toBe(`Connection works: ${sentence}`);
  });

  it('shows exactly why a key was rejected', async () => {
    installFakeBridge({ 'profiles:testConnection': () => failWith({ kind: 'unauthorized', status: 401 }) });
    renderWithApp(<ProfileForm onSaved={() => {}} />);
    fill();
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByRole('alert')).textContent).toContain('rejected the API key');
  });

  it('offers "Use for this session only" when the keychain is unavailable, and re-submits with it', async () => {
    let attempts = 0;
    const savedProfiles: ProfileView[] = [];
    const bridge = installFakeBridge({
      'profiles:add': (input) => {
        attempts++;
        if (!input.sessionOnly) failWith({ kind: 'keychain_unavailable' });
        return { ...saved, keyStorage: 'session' };
      },
    });
    renderWithApp(<ProfileForm onSaved={(p) => void savedProfiles.push(p)} />);
    fill();
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Use for this session only' }));
    await waitFor(() => expect(savedProfiles).toHaveLength(1));
    expect(attempts).toBe(2);
    expect(bridge.callsTo('profiles:add').map((i) => (i as { sessionOnly: boolean }).sessionOnly)).toEqual([
      false,
      true,
    ]);
    expect(savedProfiles[0].keyStorage).toBe('session');
  });

  it('checks its fields before asking the core', () => {
    const bridge = installFakeBridge({});
    renderWithApp(<ProfileForm onSaved={() => {}} />);
    typeInto('Profile name', ' ');
    typeInto('Base URL', 'reports.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(screen.getByText('Give the profile a name.')).toBeTruthy();
    expect(screen.getByText(/The base URL must start with https:\/\//)).toBeTruthy();
    expect(screen.getByText('Enter the API key.')).toBeTruthy();
    expect(bridge.callsTo('profiles:add')).toHaveLength(0);
    expect(bridge.callsTo('profiles:testConnection')).toHaveLength(0);
  });
});
