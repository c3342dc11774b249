/**
 * The app's language setting (issue 28): language-settings.json in the data dir, through the
 * contract's channels (validated as the window's requests are), announced to every window.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LanguageState } from '../../shared/contract';
import { EventHub } from '../../electron/core/events';
import { LanguageService } from '../../electron/core/gateway/languageService';
import { dispatch } from '../../electron/core/ipc/dispatch';
import { createLogger, memorySink } from '../../electron/core/log';
import { createCoreServices, type CoreServices } from '../../electron/core/services';
import { MemoryKeyStore } from '../../electron/core/keys/keyStore';
import { SettingsFile } from '../../electron/core/settingsFile';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'reportdesk-language-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const file = () => join(dataDir, 'language-settings.json');

function service(options: ConstructorParameters<typeof LanguageService>[2] = {}) {
  const events = new EventHub();
  const heard: LanguageState[] = [];
  events.subscribe((event, payload) => {
    if (event === 'language:changed') heard.push(payload as LanguageState);
  });
  const sink = memorySink();
  return { language: new LanguageService(dataDir, events, options, createLogger('t', sink)), heard, sink };
}

describe('the language setting', () => {
  it('starts as the system’s, with the system’s languages, without writing anything', () => {
    const { language } = service({ systemLanguages: () => ['de-AT', 'en-US'] });
    expect(language.state()).toEqual({
      choice: 'system',
      systemLanguages: ['de-AT', 'en-US'],
      runLanguage: null,
    });
    expect(readdirSync(dataDir)).toEqual([]);
    language.close();
  });

  it('knows no system languages where the front end has them (the preview: the browser’s)', () => {
    const { language } = service();
    expect(language.state().systemLanguages).toBeNull();
    language.close();
  });

  it('keeps a choice in a 0600 file that the next start reads, and tells every window', () => {
    const { language, heard } = service({ systemLanguages: () => ['fr'] });
    const chosen = language.choose('ja');
    expect(chosen).toEqual({ choice: 'ja', systemLanguages: ['fr'], runLanguage: null });
    expect(heard).toEqual([chosen]);
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ version: 1, choice: 'ja' });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    language.close();
    const next = service();
    expect(next.language.state().choice).toBe('ja');
    next.language.close();
  });

  it('reads a file that says "system" as it is, and closes its lock file when closed', () => {
    writeFileSync(file(), '{"version":1,"choice":"system"}');
    const { language, sink } = service();
    const close = vi.spyOn(SettingsFile.prototype, 'close');
    expect(language.state().choice).toBe('system');
    language.choose('de');
    // Read, not defaulted: nothing warned, nothing kept aside as unreadable.
    expect(sink.lines).toEqual([]);
    expect(readdirSync(dataDir).sort()).toEqual(['language-settings.json', 'language-settings.lock']);
    language.close();
    expect(close).toHaveBeenCalledOnce();
    close.mockRestore();
  });

  it('lets this run’s --lang win until a language is chosen', () => {
    const { language } = service({ runLanguage: 'en-XA' });
    expect(language.state().runLanguage).toBe('en-XA');
    expect(language.choose('system').runLanguage).toBeNull();
    expect(language.state().runLanguage).toBeNull();
    language.close();
  });

  it('reads a damaged file as the system’s language, and keeps it aside when the next choice is written', () => {
    writeFileSync(file(), '{"version":1,"choice":"klingon"}');
    const { language, sink } = service();
    expect(language.state().choice).toBe('system');
    expect(sink.lines.some((line) => line.includes('The language setting could not be read'))).toBe(true);
    language.choose('es');
    const kept = readdirSync(dataDir).filter((name) => name.startsWith('language-settings.json.unreadable-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dataDir, kept[0]), 'utf8')).toBe('{"version":1,"choice":"klingon"}');
    expect(language.state().choice).toBe('es');
    language.close();
  });

  it.each([
    ['another version', '{"version":2,"choice":"de"}'],
    ['no version', '{"choice":"de"}'],
    ['not an object', 'null'],
    ['not JSON', 'de'],
  ])('reads a file of %s as the system’s language, saying so in the log', (_what, text) => {
    writeFileSync(file(), text);
    const { language, sink } = service();
    expect(language.state().choice).toBe('system');
    expect(sink.lines.filter((line) => line.includes('WARN'))).toHaveLength(1);
    language.close();
  });

  it('says where it could not be saved', () => {
    const blocked = join(dataDir, 'blocked');
    writeFileSync(blocked, 'a file where the data folder should be');
    const events = new EventHub();
    const store = new LanguageService(join(blocked, 'data'), events);
    let error: unknown;
    try {
      store.choose('de');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({
      error: { kind: 'internal', code: 'lock.save_failed', values: { store: 'language_settings' } },
    });
    store.close();
  });
});

describe('through the contract', () => {
  let core: CoreServices;
  beforeEach(async () => {
    core = await createCoreServices({
      dataDir,
      keyStore: new MemoryKeyStore(),
      probeIntervalMs: 0,
      language: { systemLanguages: () => ['pt-PT'], runLanguage: null },
    });
  });
  afterEach(() => core.close());

  it('answers the state, keeps a shipped language or the system’s, and refuses anything else', async () => {
    expect(await dispatch(core.handlers, 'settings:language', undefined)).toEqual({
      ok: true,
      value: { choice: 'system', systemLanguages: ['pt-PT'], runLanguage: null },
    });
    expect(await dispatch(core.handlers, 'settings:setLanguage', { choice: 'pt-BR' })).toMatchObject({
      ok: true,
      value: { choice: 'pt-BR' },
    });
    for (const choice of ['en-XA', 'ar-XB', 'pt', 'klingon', 3]) {
      expect(await dispatch(core.handlers, 'settings:setLanguage', { choice })).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input' },
      });
    }
    expect(core.language.state().choice).toBe('pt-BR');
  });

  it('tells the first screen which language to show', async () => {
    const first = await core.handlers['app:firstScreen']({});
    expect(first.language).toEqual({ choice: 'system', systemLanguages: ['pt-PT'], runLanguage: null });
  });
});
