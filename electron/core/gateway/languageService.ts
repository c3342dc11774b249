/**
 * The app's language (issue 28), app-wide: the choice made in Settings › Language, kept in
 * `language-settings.json` in the data folder (../settingsFile.ts), with what the front end
 * cannot know by itself — the system's preferred languages (the app passes
 * `app.getPreferredSystemLanguages()`; the preview has none and the page uses the browser's) and
 * this run's `--lang`. Which language that makes is decided by each front end from its
 * catalogues (shared/i18n/languages.ts › activeLanguage). A choice is announced as
 * `language:changed`: the window, the menu, dialogs and notifications follow at once.
 */
import { z } from 'zod';
import type { EventHub } from '../events';
import type { Logger } from '../log';
import { SettingsFile } from '../settingsFile';
import {
  SHIPPED_LANGUAGES,
  type Language,
  type LanguageChoice,
  type LanguageState,
} from '../../../shared/i18n/languages';

export const LANGUAGE_SETTINGS_NAME = 'language-settings';

const LanguageSettingsSchema = z.object({
  choice: z.union([z.literal('system'), z.enum(SHIPPED_LANGUAGES)]),
});
type LanguageSettings = z.infer<typeof LanguageSettingsSchema>;

export interface LanguageOptions {
  /** The system's preferred languages, most preferred first; absent where the core cannot know them. */
  systemLanguages?: () => readonly string[];
  /** `--lang CODE` for this run: wins until a language is chosen. */
  runLanguage?: Language | null;
}

export class LanguageService {
  private readonly settings: SettingsFile<LanguageSettings>;
  private runLanguage: Language | null;

  constructor(
    dataDir: string,
    private readonly events: EventHub,
    private readonly options: LanguageOptions = {},
    logger?: Logger,
  ) {
    this.settings = new SettingsFile({
      dataDir,
      name: LANGUAGE_SETTINGS_NAME,
      schema: LanguageSettingsSchema,
      defaults: { choice: 'system' },
      store: 'language_settings',
      subject: 'the language setting',
      logger,
    });
    this.runLanguage = options.runLanguage ?? null;
  }

  state(): LanguageState {
    return {
      choice: this.settings.read().choice,
      systemLanguages: this.options.systemLanguages ? [...this.options.systemLanguages()] : null,
      runLanguage: this.runLanguage,
    };
  }

  /** Keeps the choice and says so to every window; a run's `--lang` gives way to it. */
  choose(choice: LanguageChoice): LanguageState {
    this.settings.change({ choice });
    this.runLanguage = null;
    const state = this.state();
    this.events.emit('language:changed', state);
    return state;
  }

  close(): void {
    this.settings.close();
  }
}
