/**
 * Shows any AppError as its sentence, with the one next step that makes sense for its kind:
 * retry, go to Keys & profiles, add a profile, keep a key for this session only…
 */
import { useEffect, useState } from 'react';
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

/**
 * Seconds left of the wait a 429 asked for, counting down once a second; 0 when there is none.
 * A new error (another 429) starts a new count.
 */
function useWaitLeft(appError: AppError): number {
  const asked = appError.kind === 'rate_limited' ? (appError.retryAfterSeconds ?? 0) : 0;
  const [count, setCount] = useState({ error: appError.message, asked, left: asked });
  let current = count;
  if (count.error !== appError.message || count.asked !== asked) {
    current = { error: appError.message, asked, left: asked };
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
  const appError: AppError = errorOf(error);
  const waitLeft = useWaitLeft(appError);
  const fields = appError.fieldErrors ? Object.entries(appError.fieldErrors) : [];
  return (
    <div className="error-view" role="alert" data-kind={appError.kind}>
      {title && <p className="error-title">{title}</p>}
      <p className="error-message">{appError.message}</p>
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
          // During a 429's wait the button counts down and says so; it turns on when the wait is over.
          <button type="button" className="button" onClick={onRetry} disabled={waitLeft > 0}>
            {waitLeft > 0 ? `Retry in ${waitLeft} s` : 'Retry'}
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
