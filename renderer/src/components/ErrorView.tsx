/**
 * Shows any AppError as its sentence, with the one next step that makes sense for its kind:
 * retry, go to Keys & profiles, add a profile, keep a key for this session only…
 */
import type { AppError, ErrorKind } from '../../../shared/errors';
import { errorOf } from '../lib/bridge';

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

export function ErrorView({ error, title, onRetry, onSessionOnly, hideProfileLinks }: ErrorViewProps) {
  const appError: AppError = errorOf(error);
  const fields = appError.fieldErrors ? Object.entries(appError.fieldErrors) : [];
  return (
    <div className="error-view" role="alert" data-kind={appError.kind}>
      {title && <p className="error-title">{title}</p>}
      <p className="error-message">{appError.message}</p>
      {appError.kind === 'rate_limited' && appError.retryAfterSeconds !== undefined && (
        <p className="muted">The service asked to wait {appError.retryAfterSeconds} seconds.</p>
      )}
      {fields.length > 0 && (appError.kind === 'validation' || appError.kind === 'invalid_input') && (
        <ul className="error-fields">
          {fields.map(([field, messages]) => (
            <li key={field}>
              {field === '_' ? '' : <strong>{field}: </strong>}
              {messages.join(' ')}
            </li>
          ))}
        </ul>
      )}
      <div className="error-actions">
        {onRetry && RETRYABLE_KINDS.includes(appError.kind) && (
          <button type="button" className="button" onClick={onRetry}>
            Retry
          </button>
        )}
        {appError.kind === 'keychain_unavailable' && onSessionOnly && (
          <button type="button" className="button primary" onClick={onSessionOnly}>
            Use for this session only
          </button>
        )}
        {!hideProfileLinks && KEY_KINDS.includes(appError.kind) && (
          <a className="button" href="#/profiles">
            Open Keys &amp; profiles
          </a>
        )}
        {!hideProfileLinks && appError.kind === 'no_profile' && (
          <a className="button primary" href="#/welcome">
            Add a profile
          </a>
        )}
        {appError.kind === 'not_found' && (
          <a className="button" href="#/reports">
            Back to reports
          </a>
        )}
      </div>
    </div>
  );
}
