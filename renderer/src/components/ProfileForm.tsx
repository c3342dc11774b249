/**
 * Adds a profile: name, base URL and API key. "Test connection" checks the key without saving;
 * saving tests it again in the core and keeps it in the keychain — or, when the keychain is
 * unavailable and the user agrees, in memory for this session only.
 */
import { useRef, useState, type FormEvent } from 'react';
import type { ProfileView } from '../../../shared/contract';
import type { AppError } from '../../../shared/errors';
import type { Account } from '../../../shared/model';
import { checkBaseUrl } from '../../../shared/baseUrl';
import { API_KEY_REQUIRED, PROFILE_NAME_REQUIRED } from '../../../shared/profileRules';
import { useInvalidSubmitFocus } from '../lib/announce';
import { call, errorOf } from '../lib/bridge';
import { ErrorView } from './ErrorView';
import { ApiKeyField, BaseUrlField, ProfileNameField } from './ProfileFields';

type Fields = 'name' | 'baseUrl' | 'apiKey';
type FieldErrors = Partial<Record<Fields, string[]>>;

/**
 * The shared base-URL rules (the core applies the same ones), as a field message or null.
 * Plain http:// to another computer is left to the core: its insecure_url answer is shown
 * with the error view's own advice, as before.
 */
export function baseUrlProblem(raw: string): string | null {
  const checked = checkBaseUrl(raw, true);
  return checked.ok ? null : checked.message;
}

function localProblems(name: string, baseUrl: string, apiKey: string, needName: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (needName && name.trim() === '') errors.name = [PROFILE_NAME_REQUIRED];
  const urlProblem = baseUrlProblem(baseUrl);
  if (urlProblem) errors.baseUrl = [urlProblem];
  if (apiKey.trim() === '') errors.apiKey = [API_KEY_REQUIRED];
  return errors;
}

/** The account in a few words: its name and e-mail when the service sent them. */
function accountSummary(account: Account): string {
  const pick = (key: string) =>
    typeof account[key] === 'string' || typeof account[key] === 'number' ? String(account[key]) : null;
  const name = pick('name') ?? pick('username') ?? pick('company');
  const email = pick('email');
  if (name && email) return `${name} (${email})`;
  return name ?? email ?? (pick('id') ? `account ${pick('id')}` : 'the account');
}

function fieldErrorsOf(error: AppError): FieldErrors {
  const out: FieldErrors = {};
  for (const key of ['name', 'baseUrl', 'apiKey'] as const) {
    const messages = error.fieldErrors?.[key];
    if (messages && messages.length > 0) out[key] = messages;
  }
  return out;
}

interface ProfileFormProps {
  submitLabel?: string;
  onSaved: (profile: ProfileView) => void | Promise<void>;
  onCancel?: () => void;
  initialName?: string;
}

export function ProfileForm({
  submitLabel = 'Save profile',
  onSaved,
  onCancel,
  initialName = '',
}: ProfileFormProps) {
  const [name, setName] = useState(initialName);
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [allowInsecureHttp, setAllowInsecureHttp] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const [tested, setTested] = useState<string | null>(null);
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
    const problems = localProblems(name, baseUrl, apiKey, kind === 'save');
    setFieldErrors(problems);
    if (Object.keys(problems).length > 0) return showInvalid(form.current);
    setBusy(kind);
    try {
      await action();
    } catch (thrown) {
      const failure = errorOf(thrown);
      setFieldErrors(fieldErrorsOf(failure));
      setError(failure);
      showInvalid(form.current);
    } finally {
      setBusy(null);
    }
  }

  const testConnection = () =>
    runChecked('test', async () => {
      const account = await call('profiles:testConnection', { baseUrl, apiKey, allowInsecureHttp });
      setTested(accountSummary(account));
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
    <form ref={form} className="form" onSubmit={onSubmit} noValidate aria-label="Add a profile">
      <ProfileNameField
        value={name}
        onChange={setName}
        errors={fieldErrors.name}
        hint="For you only, e.g. “Work” or “Client A”."
        autoComplete="off"
      />
      <BaseUrlField
        value={baseUrl}
        onChange={setBaseUrl}
        errors={fieldErrors.baseUrl}
        hint="The address of the Report Service, e.g. https://reports.example.com."
        autoComplete="url"
        placeholder="https://"
      />
      <ApiKeyField
        label="API key"
        value={apiKey}
        onChange={setApiKey}
        errors={fieldErrors.apiKey}
        hint="Kept in the system keychain; ReportDesk never shows it again."
      />
      {isHttp && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={allowInsecureHttp}
            onChange={(e) => setAllowInsecureHttp(e.target.checked)}
          />
          Allow plain http:// for this profile (the key travels unencrypted to hosts other than this computer)
        </label>
      )}
      {tested && (
        <p className="success" role="status">
          Connection works: the key belongs to {tested}.
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
          {busy === 'test' ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" className="button primary" disabled={busy !== null}>
          {busy === 'save' ? 'Checking the key…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
