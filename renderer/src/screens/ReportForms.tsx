/** Create a report, and change a report's privacy: forms with inline, per-field errors. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AppError } from '../../../shared/errors';
import {
  MAX_PASSWORD_LENGTH,
  PRIVACY_LABELS,
  PRIVACY_VALUES,
  reportUrlProblem,
  type PrivacyValue,
  type Report,
} from '../../../shared/model';
import { ErrorView } from '../components/ErrorView';
import { FormField } from '../components/FormField';
import { LoadingStatus, SkeletonBlock } from '../components/Skeleton';
import { useToasts, useWriteBlockReason } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { applyReportSaved, useReport } from '../lib/queries';
import { navigate } from '../lib/router';

export const PASSWORD_REQUIRED = 'A password-protected report needs a password.';
const PRIVACY_HINTS: Record<PrivacyValue, string> = {
  0: 'Anyone with the link can see it.',
  1: 'Only your account can see it.',
  2: 'Anyone with the link and the password can see it.',
};

function passwordProblem(privacy: PrivacyValue, password: string): string | null {
  if (privacy !== 2) return null;
  if (password === '') return PASSWORD_REQUIRED;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The password is at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

/** The service's (or the core's) field errors, and the error itself when no field explains it. */
function splitError(error: AppError | null, fields: readonly string[]) {
  const byField: Record<string, string[]> = {};
  let unexplained = error !== null;
  if (error?.fieldErrors) {
    for (const [key, messages] of Object.entries(error.fieldErrors)) {
      const field = key.replace(/^changes\./, '');
      if (fields.includes(field)) {
        byField[field] = messages;
        unexplained = false;
      }
    }
  }
  return { byField, general: unexplained ? error : null };
}

function PrivacyChoice({
  value,
  onChange,
  errors,
}: {
  value: PrivacyValue;
  onChange: (v: PrivacyValue) => void;
  errors?: string[];
}) {
  return (
    <fieldset className="form-field privacy-choice">
      <legend>Privacy</legend>
      {PRIVACY_VALUES.map((v) => (
        <label key={v} className="radio">
          <input type="radio" name="privacy" value={v} checked={value === v} onChange={() => onChange(v)} />
          <span>
            <strong>{PRIVACY_LABELS[v]}</strong> <span className="muted">— {PRIVACY_HINTS[v]}</span>
          </span>
        </label>
      ))}
      {errors && errors.length > 0 && <p className="field-error">{errors.join(' ')}</p>}
    </fieldset>
  );
}

function WriteBlockNote({ reason }: { reason: string | null }) {
  return reason ? (
    <p className="banner banner-inline" role="note">
      {reason}
    </p>
  ) : null;
}

export function CreateReport({ profileId }: { profileId: string }) {
  const client = useQueryClient();
  const toasts = useToasts();
  const writeBlock = useWriteBlockReason();
  const [url, setUrl] = useState('');
  const [urlTouched, setUrlTouched] = useState(false);
  const [privacy, setPrivacy] = useState<PrivacyValue>(0);
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serviceError, setServiceError] = useState<AppError | null>(null);

  const create = useMutation({
    mutationFn: () =>
      call(
        'reports:create',
        privacy === 2 ? { url: url.trim(), privacy, password } : { url: url.trim(), privacy },
      ),
    onSuccess: (report: Report) => {
      applyReportSaved(client, profileId, report);
      toasts.show('The report was created.');
      navigate(`/reports/${report.id}`);
    },
    onError: (thrown) => setServiceError(errorOf(thrown)),
  });

  const urlProblem = urlTouched || submitted ? reportUrlProblem(url) : null;
  const pwProblem = submitted ? passwordProblem(privacy, password) : null;
  const { byField, general } = splitError(serviceError, ['url', 'privacy', 'password']);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServiceError(null);
    if (writeBlock || reportUrlProblem(url) || passwordProblem(privacy, password)) return;
    create.mutate();
  }

  function clearServiceField(field: string) {
    if (!serviceError?.fieldErrors?.[field]) return;
    const rest = { ...serviceError.fieldErrors };
    delete rest[field];
    setServiceError({ ...serviceError, fieldErrors: rest });
  }

  return (
    <section className="screen screen-form" aria-labelledby="create-title">
      <a className="back-link" href="#/reports">
        ‹ Reports
      </a>
      <h1 id="create-title">New report</h1>
      <WriteBlockNote reason={writeBlock} />
      <form className="form card" onSubmit={onSubmit} noValidate aria-label="New report">
        <FormField
          label="URL to analyse"
          errors={[...(urlProblem ? [urlProblem] : []), ...(byField.url ?? [])]}
          hint="A full address starting with https:// or http://."
        >
          <input
            type="url"
            value={url}
            placeholder="https://example.com/page"
            spellCheck={false}
            autoFocus
            onChange={(e) => {
              setUrl(e.target.value);
              setUrlTouched(true);
              clearServiceField('url');
            }}
          />
        </FormField>
        <PrivacyChoice
          value={privacy}
          errors={byField.privacy}
          onChange={(v) => {
            setPrivacy(v);
            clearServiceField('privacy');
          }}
        />
        {privacy === 2 && (
          <FormField
            label="Report password"
            errors={[...(pwProblem ? [pwProblem] : []), ...(byField.password ?? [])]}
            hint="People need it to open the report. ReportDesk does not keep it."
          >
            <input
              type="password"
              value={password}
              autoComplete="new-password"
              required
              onChange={(e) => {
                setPassword(e.target.value);
                clearServiceField('password');
              }}
            />
          </FormField>
        )}
        {general && <ErrorView error={general} onRetry={() => create.mutate()} />}
        <div className="form-actions">
          <button
            type="submit"
            className="button primary"
            disabled={create.isPending || writeBlock !== null}
            title={writeBlock ?? undefined}
          >
            {create.isPending ? 'Creating…' : 'Create report'}
          </button>
          <a className="button" href="#/reports">
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
}

/** The spec's `results` flag as the report shows it, when the service sent one. */
function initialResultsFlag(report: Report): 0 | 1 {
  const value = report.results;
  return value === 1 || value === true || value === '1' ? 1 : 0;
}

export function PrivacyEdit({ profileId, id }: { profileId: string; id: string }) {
  const query = useReport(profileId, id);
  if (query.isPending) {
    return (
      <section className="screen" aria-label="Edit privacy">
        <SkeletonBlock lines={5} />
        <LoadingStatus label="Loading the report…" />
      </section>
    );
  }
  if (query.isError) {
    return (
      <section className="screen" aria-label="Edit privacy">
        <a className="back-link" href="#/reports">
          ‹ Reports
        </a>
        <ErrorView
          error={query.error}
          title={`Report ${id} could not be loaded.`}
          onRetry={() => void query.refetch()}
        />
      </section>
    );
  }
  return <PrivacyForm profileId={profileId} report={query.data.report} />;
}

export function PrivacyForm({ profileId, report }: { profileId: string; report: Report }) {
  const client = useQueryClient();
  const toasts = useToasts();
  const writeBlock = useWriteBlockReason();
  const [privacy, setPrivacy] = useState<PrivacyValue>(report.privacy ?? 0);
  const [password, setPassword] = useState('');
  const [results, setResults] = useState<0 | 1>(initialResultsFlag(report));
  const [submitted, setSubmitted] = useState(false);
  const [serviceError, setServiceError] = useState<AppError | null>(null);

  const update = useMutation({
    mutationFn: () =>
      call('reports:update', {
        id: report.id,
        changes: privacy === 2 ? { privacy, password, results } : { privacy, results },
      }),
    onSuccess: (updated: Report) => {
      applyReportSaved(client, profileId, updated);
      toasts.show('The privacy was changed.');
      navigate(`/reports/${updated.id}`);
    },
    onError: (thrown) => setServiceError(errorOf(thrown)),
  });

  const pwProblem = submitted ? passwordProblem(privacy, password) : null;
  const { byField, general } = splitError(serviceError, ['privacy', 'password', 'results']);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServiceError(null);
    if (writeBlock || passwordProblem(privacy, password)) return;
    update.mutate();
  }

  return (
    <section className="screen screen-form" aria-labelledby="privacy-title">
      <a className="back-link" href={`#/reports/${report.id}`}>
        ‹ Report {report.id}
      </a>
      <h1 id="privacy-title">Edit privacy</h1>
      <p className="muted break">{report.url}</p>
      <WriteBlockNote reason={writeBlock} />
      <form className="form card" onSubmit={onSubmit} noValidate aria-label="Edit privacy">
        <PrivacyChoice value={privacy} onChange={setPrivacy} errors={byField.privacy} />
        {privacy === 2 && (
          <FormField
            label="Report password"
            errors={[...(pwProblem ? [pwProblem] : []), ...(byField.password ?? [])]}
            hint="Sets the password people need to open the report. ReportDesk does not keep it."
          >
            <input
              type="password"
              value={password}
              autoComplete="new-password"
              required
              onChange={(e) => setPassword(e.target.value)}
            />
          </FormField>
        )}
        <fieldset className="form-field">
          <legend>Results visible</legend>
          <label className="radio">
            <input type="radio" name="results" checked={results === 1} onChange={() => setResults(1)} /> Yes
          </label>
          <label className="radio">
            <input type="radio" name="results" checked={results === 0} onChange={() => setResults(0)} /> No
          </label>
          <p className="field-hint">
            Sent as the update’s “results” flag — the service decides what this changes.
          </p>
          {byField.results && <p className="field-error">{byField.results.join(' ')}</p>}
        </fieldset>
        {general && <ErrorView error={general} onRetry={() => update.mutate()} />}
        <div className="form-actions">
          <button
            type="submit"
            className="button primary"
            disabled={update.isPending || writeBlock !== null}
            title={writeBlock ?? undefined}
          >
            {update.isPending ? 'Saving…' : 'Save privacy'}
          </button>
          <a className="button" href={`#/reports/${report.id}`}>
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
}
