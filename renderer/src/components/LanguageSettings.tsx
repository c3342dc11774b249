/**
 * Settings › Language (issue 28): the system's language — named in itself, "System (Deutsch)" —
 * or any language this build has a catalogue for, each named in itself. App-wide: the choice is
 * kept in the data folder (settings:setLanguage) and every window, the menu and the dialogs
 * follow at once. A pseudo-language (--lang en-XA) is never offered; while one is shown, the
 * section says so, and a choice here replaces it.
 */
import { useId, useState } from 'react';
import type { AppError } from '../../../shared/errors';
import { NATIVE_NAMES, systemLanguage, type LanguageChoice } from '../../../shared/i18n/languages';
import { call, errorOf } from '../lib/bridge';
import { AVAILABLE_LANGUAGES, browserLanguages, useWords } from '../lib/i18n';
import { applyLanguageState, useLanguageState } from '../lib/queries';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorView } from './ErrorView';
import { SkeletonBlock } from './Skeleton';

export function LanguageSettings() {
  const words = useWords();
  const client = useQueryClient();
  const state = useLanguageState();
  const selectId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);

  async function choose(choice: LanguageChoice) {
    setBusy(true);
    setError(null);
    try {
      await applyLanguageState(client, await call('settings:setLanguage', { choice }));
    } catch (thrown) {
      setError(errorOf(thrown));
    } finally {
      setBusy(false);
    }
  }

  const data = state.data;
  return (
    <>
      <h2 className="section-title">{words('language.heading')}</h2>
      <div className="card">
        {state.isPending && <SkeletonBlock lines={1} />}
        {state.isError && <ErrorView error={state.error} onRetry={() => void state.refetch()} />}
        {data && (
          <div className="form-field inline-field">
            <label htmlFor={selectId}>{words('language.label')}</label>
            <select
              id={selectId}
              value={data.runLanguage === null ? data.choice : ''}
              disabled={busy}
              onChange={(e) => void choose(e.target.value as LanguageChoice)}
            >
              {data.runLanguage !== null && (
                // The code given to --lang, as typed.
                <option value="" dir="ltr">
                  {data.runLanguage}
                </option>
              )}
              <option value="system">
                {words('language.system', {
                  language: NATIVE_NAMES[systemLanguage(data, browserLanguages(), AVAILABLE_LANGUAGES)],
                })}
              </option>
              {AVAILABLE_LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {NATIVE_NAMES[code]}
                </option>
              ))}
            </select>
          </div>
        )}
        {data?.runLanguage && (
          <p className="field-hint">{words('language.run_language', { language: data.runLanguage })}</p>
        )}
        <p className="field-hint">{words('language.hint')}</p>
        {error && <ErrorView error={error} />}
      </div>
    </>
  );
}
