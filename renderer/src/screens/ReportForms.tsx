/** Create a report, and change a report's privacy: forms with inline, per-field errors. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type ComponentProps, type FormEvent } from 'react';
import type { AppError, Wording } from '../../../shared/errors';
import { errorSentence } from '../../../shared/i18n/errorSentence';
import {
  reportPasswordProblem,
  reportUrlProblem,
  type PrivacyValue,
  type Report,
} from '../../../shared/model';
import { BackLink, BackToReports } from '../components/BackLink';
import { PrivacyChoice } from '../components/PrivacyChoice';
import { ErrorView } from '../components/ErrorView';
import { FieldErrors, TextField } from '../components/FormField';
import { WriteActionButton } from '../components/WriteActionButton';
import { ReportFallback } from '../components/ReportFallback';
import { useInvalidSubmitFocus } from '../lib/announce';
import { useToasts, useWriteBlockReason } from '../lib/appState';
import { call, errorOf } from '../lib/bridge';
import { fieldProblems } from '../lib/errorWords';
import { useWords, type RendererWords } from '../lib/i18n';
import { applyReportSaved, useReport } from '../lib/queries';
import { navigate } from '../lib/router';

/** The service's (or the core's) field errors in words, and the error itself when no field explains it. */
function splitError(words: RendererWords, error: AppError | null, fields: readonly string[]) {
  const byField: Record<string, string[]> = {};
  let unexplained = error !== null;
  const keys = new Set([
    ...Object.keys(error?.fieldErrors ?? {}),
    ...Object.keys(error?.fieldWordings ?? {}),
  ]);
  for (const key of keys) {
    const field = key.replace(/^changes\./, '');
    const messages = fieldProblems(words, error, key);
    if (fields.includes(field) && messages.length > 0) {
      byField[field] = messages;
      unexplained = false;
    }
  }
  return { byField, general: unexplained ? error : null };
}

/** What a field shows: the problem found here first, then what the service said about it. */
function fieldErrors(
  words: RendererWords,
  localProblem: Wording | null,
  fromService: string[] | undefined,
): string[] {
  return [...(localProblem ? [errorSentence(words, localProblem)] : []), ...(fromService ?? [])];
}

/** Only for password-protected reports; the service keeps it, ReportDesk never does. */
function ReportPasswordField(props: Omit<ComponentProps<typeof TextField>, 'label' | 'type'>) {
  const words = useWords();
  return (
    <TextField
      {...props}
      label={words('report.field.password')}
      type="password"
      autoComplete="new-password"
      required
    />
  );
}

function ResultsChoice({
  value,
  onChange,
  errors,
}: {
  value: 0 | 1;
  onChange: (v: 0 | 1) => void;
  errors?: string[];
}) {
  const words = useWords();
  const hintId = useId();
  const errorId = useId();
  const invalid = !!errors && errors.length > 0;
  const describedBy = invalid ? `${hintId} ${errorId}` : hintId;
  return (
    <fieldset className="form-field" aria-describedby={describedBy}>
      <legend>{words('privacy_form.results')}</legend>
      {([1, 0] as const).map((v) => (
        <label key={v} className="radio">
          <input
            type="radio"
            name="results"
            checked={value === v}
            onChange={() => onChange(v)}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
          />{' '}
          {words(v === 1 ? 'field.yes' : 'field.no')}
        </label>
      ))}
      <p className="field-hint" id={hintId}>
        {words('privacy_form.results.hint')}
      </p>
      {invalid && <FieldErrors id={errorId} errors={errors} />}
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

/**
 * The end of a report form: the error no field explains (with Retry), then the submit button —
 * off while the request runs or writes are blocked — and Cancel.
 */
function ReportFormFooter({
  action,
  unexplainedError,
  submitLabel,
  pendingLabel,
  cancelHref,
}: {
  action: { isPending: boolean; mutate: () => void };
  unexplainedError: AppError | null;
  submitLabel: string;
  pendingLabel: string;
  cancelHref: string;
}) {
  const words = useWords();
  return (
    <>
      {unexplainedError && <ErrorView error={unexplainedError} onRetry={() => action.mutate()} />}
      <div className="form-actions">
        <WriteActionButton type="submit" className="button primary" busy={action.isPending}>
          {action.isPending ? pendingLabel : submitLabel}
        </WriteActionButton>
        <a className="button" href={cancelHref}>
          {words('dialog.cancel')}
        </a>
      </div>
    </>
  );
}

/**
 * A report form's round trip: its checks speak once it was submitted, a blocked or invalid form
 * never reaches the service, and the service's error is kept to show by field.
 */
function useReportSubmit(send: () => Promise<Report>, onSaved: (report: Report) => void) {
  const [submitted, setSubmitted] = useState(false);
  const [serviceError, setServiceError] = useState<AppError | null>(null);
  const form = useRef<HTMLFormElement | null>(null);
  const showInvalid = useInvalidSubmitFocus();
  const saving = useMutation({
    mutationFn: send,
    onSuccess: onSaved,
    onError: (thrown) => {
      setServiceError(errorOf(thrown));
      // The service named fields: take the user to the first of them.
      showInvalid(form.current);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>, canSend: boolean) {
    event.preventDefault();
    form.current = event.currentTarget;
    setSubmitted(true);
    setServiceError(null);
    if (canSend) saving.mutate();
    else showInvalid(event.currentTarget);
  }

  return { saving, submitted, serviceError, setServiceError, submit };
}

export function CreateReport({ profileId }: { profileId: string }) {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const writeBlock = useWriteBlockReason();
  const [url, setUrl] = useState('');
  const [urlTouched, setUrlTouched] = useState(false);
  const [privacy, setPrivacy] = useState<PrivacyValue>(0);
  const [password, setPassword] = useState('');
  const { saving, submitted, serviceError, setServiceError, submit } = useReportSubmit(
    () =>
      call(
        'reports:create',
        privacy === 2 ? { url: url.trim(), privacy, password } : { url: url.trim(), privacy },
      ),
    (report) => {
      applyReportSaved(client, profileId, report);
      toasts.show(words('create.done'));
      navigate(`/reports/${report.id}`);
    },
  );

  const urlProblem = urlTouched || submitted ? reportUrlProblem(url) : null;
  const pwProblem = submitted ? reportPasswordProblem(privacy, password) : null;
  const { byField, general } = splitError(words, serviceError, ['url', 'privacy', 'password']);

  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(event, !writeBlock && !reportUrlProblem(url) && !reportPasswordProblem(privacy, password));

  function clearServiceField(field: string) {
    if (!serviceError?.fieldErrors?.[field]) return;
    const rest = { ...serviceError.fieldErrors };
    delete rest[field];
    setServiceError({ ...serviceError, fieldErrors: rest });
  }

  return (
    <section className="screen screen-form" aria-labelledby="create-title">
      <BackToReports />
      <h1 id="create-title">{words('create.heading')}</h1>
      <WriteBlockNote reason={writeBlock} />
      <form className="form card" onSubmit={onSubmit} noValidate aria-label={words('create.heading')}>
        <TextField
          label={words('create.url')}
          errors={fieldErrors(words, urlProblem, byField.url)}
          hint={words('create.url.hint')}
          type="url"
          value={url}
          placeholder={words('create.url.placeholder')}
          spellCheck={false}
          onChange={(value) => {
            setUrl(value);
            setUrlTouched(true);
            clearServiceField('url');
          }}
        />
        <PrivacyChoice
          value={privacy}
          errors={byField.privacy}
          onChange={(v) => {
            setPrivacy(v);
            clearServiceField('privacy');
          }}
        />
        {privacy === 2 && (
          <ReportPasswordField
            value={password}
            errors={fieldErrors(words, pwProblem, byField.password)}
            hint={words('create.password.hint')}
            onChange={(value) => {
              setPassword(value);
              clearServiceField('password');
            }}
          />
        )}
        <ReportFormFooter
          action={saving}
          unexplainedError={general}
          submitLabel={words('create.submit')}
          pendingLabel={words('create.creating')}
          cancelHref="#/reports"
        />
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
  const words = useWords();
  const query = useReport(profileId, id);
  if (!query.isSuccess) {
    return (
      <ReportFallback
        query={query}
        id={id}
        label={words('privacy_form.heading')}
        skeletonLines={5}
        backLinkWhileLoading={false}
      />
    );
  }
  return <PrivacyForm profileId={profileId} report={query.data.report} />;
}

export function PrivacyForm({ profileId, report }: { profileId: string; report: Report }) {
  const words = useWords();
  const client = useQueryClient();
  const toasts = useToasts();
  const writeBlock = useWriteBlockReason();
  const [privacy, setPrivacy] = useState<PrivacyValue>(report.privacy ?? 0);
  const [password, setPassword] = useState('');
  const [results, setResults] = useState<0 | 1>(initialResultsFlag(report));
  const { saving, submitted, serviceError, submit } = useReportSubmit(
    () =>
      call('reports:update', {
        id: report.id,
        changes: privacy === 2 ? { privacy, password, results } : { privacy, results },
      }),
    (updated) => {
      applyReportSaved(client, profileId, updated);
      toasts.show(words('privacy_form.done'));
      navigate(`/reports/${updated.id}`);
    },
  );

  const pwProblem = submitted ? reportPasswordProblem(privacy, password) : null;
  const { byField, general } = splitError(words, serviceError, ['privacy', 'password', 'results']);

  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(event, !writeBlock && !reportPasswordProblem(privacy, password));

  return (
    <section className="screen screen-form" aria-labelledby="privacy-title">
      <BackLink href={`#/reports/${report.id}`} label={words('report.title', { id: report.id })} />
      <h1 id="privacy-title">{words('privacy_form.heading')}</h1>
      <p className="muted break" dir="ltr">
        {report.url}
      </p>
      <WriteBlockNote reason={writeBlock} />
      <form className="form card" onSubmit={onSubmit} noValidate aria-label={words('privacy_form.heading')}>
        <PrivacyChoice value={privacy} onChange={setPrivacy} errors={byField.privacy} />
        {privacy === 2 && (
          <ReportPasswordField
            value={password}
            errors={fieldErrors(words, pwProblem, byField.password)}
            hint={words('privacy_form.password.hint')}
            onChange={setPassword}
          />
        )}
        <ResultsChoice value={results} onChange={setResults} errors={byField.results} />
        <ReportFormFooter
          action={saving}
          unexplainedError={general}
          submitLabel={words('privacy_form.submit')}
          pendingLabel={words('privacy_form.saving')}
          cancelHref={`#/reports/${report.id}`}
        />
      </form>
    </section>
  );
}
