/**
 * The window's language (issue 28): the first screen's answer says which it is, Settings ›
 * Language chooses another, and a `language:changed` event from the core switches every word at
 * once, without a reload. A pseudo-language shows which text is not from the catalogue.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FirstScreen, LanguageState, ProfilesState, ReportPageResult } from '../../shared/contract';
import type { Report } from '../../shared/model';
import { App } from '../../renderer/src/App';
import { prefetchFirstScreen } from '../../renderer/src/lib/firstScreen';
import { guessedLanguage, setDocumentLanguage, showLanguage } from '../../renderer/src/lib/i18n';
import { createQueryClient } from '../../renderer/src/lib/queries';
import { SettingsScreen } from '../../renderer/src/screens/Settings';
import {
  OFFLINE_STATE,
  ONLINE,
  PROFILE,
  SYSTEM_LANGUAGE,
  installFakeBridge,
  renderWithApp,
  type FakeHandlers,
} from './helpers';

const REPORTS: Report[] = [
  { id: '1', url: 'https://one.example.com/', result: 'good', privacy: 0, project: 'shop' },
  { id: '2', url: 'https://two.example.com/', result: 'bad', privacy: 1, project: null },
];
const ACTIVE: ProfilesState = { profiles: [PROFILE], activeId: PROFILE.id };
const PAGE: ReportPageResult = {
  reports: REPORTS,
  page: 1,
  perPage: 10,
  total: 2,
  lastPage: 1,
  source: 'network',
  fetchedAt: new Date().toISOString(),
};

function start(language: LanguageState, handlers: FakeHandlers = {}) {
  const bridge = installFakeBridge({
    'app:firstScreen': (): FirstScreen => ({
      profiles: ACTIVE,
      connectivity: ONLINE,
      list: { ok: true, value: PAGE },
      language,
    }),
    'cache:projects': () => [],
    'cache:overview': () => null,
    'offline:get': () => OFFLINE_STATE,
    'changes:summary': () => ({
      profileId: PROFILE.id,
      since: null,
      counts: { added: 0, addedBad: 0, changed: 0, turnedBad: 0, removed: 0 },
      items: [],
      more: 0,
    }),
    'changes:marks': () => ({ newIds: [] }),
    ...handlers,
  });
  const client = createQueryClient();
  prefetchFirstScreen(client, true);
  render(<App client={client} />);
  return bridge;
}

beforeEach(() => {
  window.location.hash = '#/reports';
  localStorage.setItem('reportdesk.firstScreen.profile', PROFILE.id);
});
afterEach(async () => {
  cleanup();
  localStorage.clear();
  await act(() => showLanguage('en'));
});

/** Text on screen with plain ASCII letters once what is user data is taken out: words not from the catalogue. */
function untranslated(container: HTMLElement, userData: string[]): string[] {
  const found: string[] = [];
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let text = node.textContent ?? '';
    for (const data of userData) text = text.split(data).join('');
    if (/[A-Za-z]/.test(text)) found.push(node.textContent!);
  }
  return found;
}

describe('the first screen in the app’s language', () => {
  it('shows the language the core says, here this run’s --lang en-XA: every word from the catalogue', async () => {
    start({ ...SYSTEM_LANGUAGE, runLanguage: 'en-XA' });
    await screen.findByText('https://two.example.com/');
    await waitFor(() => expect(document.documentElement.lang).toBe('en-XA'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('[Ŕéƥöŕţš ~~~]');
    expect(document.title).toMatch(/^\[\[Ŕéƥöŕţš ~~~\] — /);
    const userData = [...REPORTS.flatMap((r) => [r.url, r.id]), 'shop', PROFILE.name];
    expect(untranslated(document.body, userData)).toEqual([]);
  });

  it('is mirrored in ar-XB: the page reads right to left', async () => {
    start({ ...SYSTEM_LANGUAGE, runLanguage: 'ar-XB' });
    await screen.findByText('https://two.example.com/');
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar-XB');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('\u200f\u202eReports\u202c\u200f');
  });

  it('follows a language chosen in another window at once, without a reload', async () => {
    const bridge = start(SYSTEM_LANGUAGE);
    await screen.findByText('https://two.example.com/');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Reports');
    act(() => bridge.emit('language:changed', { ...SYSTEM_LANGUAGE, runLanguage: 'en-XA' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('[Ŕéƥöŕţš ~~~]'));
    // The rows stayed: the screen changed its words, not its data.
    expect(screen.getByText('https://one.example.com/')).toBeTruthy();
    act(() => bridge.emit('language:changed', SYSTEM_LANGUAGE));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Reports'));
    expect(document.documentElement).toMatchObject({ lang: 'en', dir: 'ltr' });
  });
});

describe('the first frame’s language (boot.ts)', () => {
  afterEach(() => {
    delete document.documentElement.dataset.language;
    setDocumentLanguage('en');
  });

  it('is the one the page was served in, before the one shown last and the browser’s', () => {
    localStorage.setItem('reportdesk.language', 'en-XA');
    document.documentElement.dataset.language = 'ar-XB';
    expect(guessedLanguage()).toBe('ar-XB');
    document.documentElement.dataset.language = 'de';
    expect(guessedLanguage()).toBe('de');
    // A language this build has no catalogue for is not asked for: the one shown last instead.
    document.documentElement.dataset.language = 'xx';
    expect(guessedLanguage()).toBe('en-XA');
    localStorage.removeItem('reportdesk.language');
    expect(guessedLanguage()).toBe('en');
  });

  it('sets the page’s language and direction at once, before any catalogue is loaded', () => {
    setDocumentLanguage('ar-XB');
    expect(document.documentElement).toMatchObject({ lang: 'ar-XB', dir: 'rtl' });
    setDocumentLanguage('en-XA');
    expect(document.documentElement).toMatchObject({ lang: 'en-XA', dir: 'ltr' });
  });
});

describe('Settings › Language', () => {
  function settings(state: LanguageState = SYSTEM_LANGUAGE) {
    let current = state;
    const bridge = installFakeBridge({
      'cache:status': () => ({
        profileId: PROFILE.id,
        reportCount: 0,
        sizeBytes: 0,
        lastFullSyncAt: null,
        lastQuickRefreshAt: null,
        syncing: false,
      }),
      'connectivity:status': () => ONLINE,
      'offline:get': () => OFFLINE_STATE,
      'settings:language': () => current,
      'settings:setLanguage': ({ choice }) => (current = { ...current, choice, runLanguage: null }),
    });
    renderWithApp(<SettingsScreen profileId={PROFILE.id} />);
    return bridge;
  }

  it('offers the system’s language first, named in itself, then each language named in itself — never a pseudo-language', async () => {
    settings({ choice: 'system', systemLanguages: ['de-DE', 'en-US'], runLanguage: null });
    const select = (await screen.findByLabelText('Language')) as HTMLSelectElement;
    expect([...select.options].map((option) => [option.value, option.text])).toEqual([
      ['system', 'System (Deutsch)'],
      ['en', 'English'],
      ['de', 'Deutsch'],
      ['fr', 'Français'],
      ['es', 'Español'],
      ['pt-BR', 'Português (Brasil)'],
      ['ja', '日本語'],
      ['zh-CN', '简体中文'],
      ['ar', 'العربية'],
    ]);
    expect(select.value).toBe('system');
    expect(within(select).getByText('English').getAttribute('lang')).toBe('en');
    expect(within(select).getByText('العربية').getAttribute('lang')).toBe('ar');
  });

  it('keeps a choice through the core and shows it', async () => {
    const bridge = settings();
    const select = (await screen.findByLabelText('Language')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'en' } });
    await waitFor(() => expect(bridge.callsTo('settings:setLanguage')).toEqual([{ choice: 'en' }]));
    await waitFor(() => expect(select.value).toBe('en'));
  });

  it('says when this window was started in another language, and a choice replaces it', async () => {
    await act(() => showLanguage('en-XA'));
    const bridge = settings({ ...SYSTEM_LANGUAGE, runLanguage: 'en-XA' });
    expect(await screen.findByText(/ îñ en-XA \(/)).toBeTruthy();
    const select = screen.getAllByRole('combobox')[0] as HTMLSelectElement;
    expect(select.value).toBe('');
    fireEvent.change(select, { target: { value: 'system' } });
    await waitFor(() => expect(bridge.callsTo('settings:setLanguage')).toEqual([{ choice: 'system' }]));
    await waitFor(() => expect(document.documentElement.lang).toBe('en'));
    expect(await screen.findByRole('heading', { name: 'Language' })).toBeTruthy();
  });
});
