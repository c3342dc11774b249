/**
 * Adds a profile: name, base URL and API key. "Test connection" checks the key without saving;
 * saving tests it again in the core and keeps it in the keychain — or, when the keychain is
 * unavailable and the user agrees, in memory for this session only.
 */
import { useRef, useState, type FormEvent } from 'react';
import type { ProfileView } from '../../../shared/contract';
import type { AppError, Wording } from '../../../shared/errors';
import { errorSentence } from '../../../shared/i18n/errorSentence';
import type { Account } from '../../../shared/model';
import { checkBaseUrl } from '../../../shared/baseUrl';
import { useInvalidSubmitFocus } from '../lib/announce';
import { call, errorOf } from '../lib/bridge';
import { fieldProblems } from '../lib/errorWords';
import { useWords, type RendererWords } from '../lib/i18n';
import { ErrorView } from './ErrorView';
import { ApiKeyField, BaseUrlField, ProfileNameField } from './ProfileFields';

type Fields = 'name' | 'baseUrl' | 'apiKey';
type FieldErrors = Partial<Record<Fields, string[]>>;

/**
 * The shared base-URL rules (the core applies the same ones), as a field's problem or null.
 * Plain http:// to another computer is left to the core: its insecure_url answer is shown
 * with the error view's own advice, as before.
 */
export function baseUrlProblem(raw: string): Wording | null {
  const checked = checkBaseUrl(raw, true);
  return checked.ok ? null : checked.problem;
}

function localProblems(
  words: RendererWords,
  name: string,
  baseUrl: string,
  apiKey: string,
  needName: boolean,
): FieldErrors {
  const errors: FieldErrors = {};
  if (needName && name.trim() === '')
    errors.name = [errorSentence(words, { code: 'field.profile_name_required' })];
  const urlProblem = baseUrlProblem(baseUrl);
  if (urlProblem) errors.baseUrl = [errorSentence(words, urlProblem)];
  if (apiKey.trim() === '') errors.apiKey = [errorSentence(words, { code: 'field.api_key_required' })];
  return errors;
}

/**
 * The sentence that says whose account the key is, whole for each case (a translator orders the
 * words of each): by its name and e-mail when the service sent them, else by what it did send.
 */
function connectionWorks(words: RendererWords, account: Account): string {
  const pick = (key: string) =>
    typeof account[key] === 'string' || typeof account[key] === 'number' ? String(account[key]) : null;
  const name = pick('name') ?? pick('username') ?? pick('company');
  const email = pick('email');
  const id = pick('id');
  const named = name ?? email;
  if (name && email) return words('profile.connection_works', { shown: 'name_email', name, email });
  if (named) return words('profile.connection_works', { shown: 'name', name: named });
  if (id) return words('profile.connection_works', { shown: 'id', id });
  return words('profile.connection_works', { shown: 'other' });
}

function fieldErrorsOf(words: RendererWords, error: AppError): FieldErrors {
  const out: FieldErrors = {};
  for (const key of ['name', 'baseUrl', 'apiKey'] as const) {
    const messages = fieldProblems(words, error, key);
    if (messages.length > 0) out[key] = messages;
  }
  return out;
}

interface ProfileFormProps {
  submitLabel?: string;
  onSaved: (profile: ProfileView) => void | Promise<void>;
  onCancel?: () => void;
  initialName?: string;
}

export function ProfileForm({ submitLabel, onSaved, onCancel, initialName = '' }: ProfileFormProps) {
  const words = useWords();
  const [name, setName] = useState(initialName);
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [allowInsecureHttp, setAllowInsecureHttp] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const [tested, setTested] = useState<Account | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const showInvalid = useInvalidSubmitFocus();

  function resetFeedback() {
    setError(null);
    setTested(null);
  }

  /** Checks the fields, then runs the call; its failure lands next to the fields it names. */
  async function runChecked(kind: 'test' | 'save', action: () => Promise<void>) {
    resetFeedback();
    // Only saving needs a name: a connection test is about the URL and the key.
    const problems = localProblems(words, name, baseUrl, apiKey, kind === 'save');
    setFieldErrors(problems);
    if (Object.keys(problems).length > 0) return showInvalid(form.current);
    setBusy(kind);
    try {
      await action();
    } catch (thrown) {
      const failure = errorOf(thrown);
      setFieldErrors(fieldErrorsOf(words, failure));
      setError(failure);
      showInvalid(form.current);
    } finally {
      setBusy(null);
    }
  }

  const testConnection = () =>
    runChecked('test', async () => {
      const account = await call('profiles:testConnection', { baseUrl, apiKey, allowInsecureHttp });
      setTested(account);
    });

  const save = (sessionOnly: boolean) =>
    runChecked('save', async () => {
      const profile = await call('profiles:add', { name, baseUrl, apiKey, allowInsecureHttp, sessionOnly });
      setApiKey('');
      await onSaved(profile);
    });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void save(false);
  }

  const isHttp = /^\s*http:\/\//i.test(baseUrl);
  return (
    <form
      ref={form}
      className="form"
      onSubmit={onSubmit}
      noValidate
      aria-label={words('profiles.add_dialog.title')}
    >
      <ProfileNameField
        value={name}
        onChange={setName}
        errors={fieldErrors.name}
        hint={words('profile.field.name.hint')}
        autoComplete="off"
      />
      <BaseUrlField
        value={baseUrl}
        onChange={setBaseUrl}
        errors={fieldErrors.baseUrl}
        hint={words('profile.field.base_url.hint')}
        autoComplete="url"
        placeholder={words('profile.field.base_url.placeholder')}
      />
      <ApiKeyField
        label={words('profile.field.api_key')}
        value={apiKey}
        onChange={setApiKey}
        errors={fieldErrors.apiKey}
        hint={words('profile.field.api_key.hint')}
      />
      {isHttp && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={allowInsecureHttp}
            onChange={(e) => setAllowInsecureHttp(e.target.checked)}
          />
          {words('profile.field.allow_http')}
        </label>
      )}
      {tested && (
        <p className="success" role="status">
          {connectionWorks(words, tested)}
        </p>
      )}
      {error && <ErrorView error={error} hideProfileLinks onSessionOnly={() => void save(true)} />}
      <div className="form-actions">
        <button
          type="button"
          className="button"
          onClick={() => void testConnection()}
          disabled={busy !== null}
        >
          {words(busy === 'test' ? 'profile.testing' : 'profile.test_connection')}
        </button>
        <button type="submit" className="button primary" disabled={busy !== null}>
          {busy === 'save' ? words('profile.checking_key') : (submitLabel ?? words('profile.save'))}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            {words('dialog.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
