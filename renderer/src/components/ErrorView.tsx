/**
 * Shows any AppError as its sentence in the user's language (lib/errorWords.ts), with the one
 * next step that makes sense for its kind: retry, go to Keys & profiles, add a profile, keep a
 * key for this session only… The fields a service named in a 422 are listed as it sent them.
 */
import { useEffect, useState } from 'react';
import type { AppError, ErrorKind } from '../../../shared/errors';
import { errorOf } from '../lib/bridge';
import { errorText } from '../lib/errorWords';
import { useWords } from '../lib/i18n';

/** Kinds where trying the same thing again can succeed. */
export const RETRYABLE_KINDS: readonly ErrorKind[] = [
  'network',
  'timeout',
  'server_error',
  'rate_limited',
  'bad_response',
  'offline',
  'cancelled',
  'internal',
  // Their sentences end "free some space / make the folder writable, then try again".
  'disk_full',
  'read_only',
];
const KEY_KINDS: readonly ErrorKind[] = ['unauthorized', 'forbidden', 'insecure_url'];

interface ErrorViewProps {
  error: unknown;
  title?: string;
  onRetry?: () => void;
  /** Offered for keychain_unavailable: save the key for this session only. */
  onSessionOnly?: () => void;
  /** Hide the link to Keys & profiles (e.g. on that screen or during first-run set-up). */
  hideProfileLinks?: boolean;
}

/**
 * Seconds left of the wait a 429 asked for, counting down once a second; 0 when there is none.
 * A new error (another 429) starts a new count.
 */
function useWaitLeft(appError: AppError): number {
  const asked = appError.kind === 'rate_limited' ? (appError.retryAfterSeconds ?? 0) : 0;
  const [count, setCount] = useState({ error: appError, asked, left: asked });
  let current = count;
  if (count.error !== appError || count.asked !== asked) {
    current = { error: appError, asked, left: asked };
    setCount(current);
  }
  const running = current.left > 0;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(
      () => setCount((c) => (c.left > 0 ? { ...c, left: c.left - 1 } : c)),
      1000,
    );
    return () => window.clearInterval(timer);
  }, [running]);
  return current.left;
}

export function ErrorView({ error, title, onRetry, onSessionOnly, hideProfileLinks }: ErrorViewProps) {
  const words = useWords();
  const appError: AppError = errorOf(error);
  const waitLeft = useWaitLeft(appError);
  // Only a service's own field messages (a 422) are listed here: the core's own checks are
  // worded beside their fields by the forms.
  const fields =
    appError.kind === 'validation' && appError.fieldErrors ? Object.entries(appError.fieldErrors) : [];
  return (
    <div className="error-view" role="alert" data-kind={appError.kind}>
      {title && <p className="error-title">{title}</p>}
      <p className="error-message">{errorText(words, appError)}</p>
      {fields.length > 0 && (
        <ul className="error-fields">
          {fields.map(([field, messages]) => (
            <li key={field}>
              {field === '_'
                ? null
                : words.rich('errors.service_field', {
                    field: <bdi>{field}</bdi>,
                    strong: (chunks) => <strong>{chunks}</strong>,
                  })}
              <bdi>{messages.join(' ')}</bdi>
            </li>
          ))}
        </ul>
      )}
      <div className="error-actions">
        {onRetry && RETRYABLE_KINDS.includes(appError.kind) && (
          // During a 429's wait the button counts down and says so; it turns on when the wait is over.
          <button type="button" className="button" onClick={onRetry} disabled={waitLeft > 0}>
            {waitLeft > 0 ? words('errors.retry_in', { seconds: waitLeft }) : words('errors.retry')}
          </button>
        )}
        {appError.kind === 'keychain_unavailable' && onSessionOnly && (
          <button type="button" className="button primary" onClick={onSessionOnly}>
            {words('errors.session_only')}
          </button>
        )}
        {!hideProfileLinks && KEY_KINDS.includes(appError.kind) && (
          <a className="button" href="#/profiles">
            {words('errors.open_profiles')}
          </a>
        )}
        {!hideProfileLinks && appError.kind === 'no_profile' && (
          <a className="button primary" href="#/welcome">
            {words('errors.add_profile')}
          </a>
        )}
        {appError.kind === 'not_found' && (
          <a className="button" href="#/reports">
            {words('errors.back_to_reports')}
          </a>
        )}
      </div>
    </div>
  );
}
