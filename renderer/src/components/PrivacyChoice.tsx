/** The three privacy settings as one radio group, each with what it means; an error is read on every button. */
import { useId } from 'react';
import { PRIVACY_LABELS, PRIVACY_VALUES, type PrivacyValue } from '../../../shared/model';

const PRIVACY_HINTS: Record<PrivacyValue, string> = {
  0: 'Anyone with the link can see it.',
  1: 'Only your account can see it.',
  2: 'Anyone with the link and the password can see it.',
};

export function PrivacyChoice({
  value,
  onChange,
  errors,
  name = 'privacy',
  disabled,
  autoFocusChecked,
}: {
  value: PrivacyValue;
  onChange: (v: PrivacyValue) => void;
  errors?: string[];
  /** The radio group's name; two groups on one page need two names. */
  name?: string;
  disabled?: boolean;
  /** Marks the checked button for a dialog's first focus (Modal's data-autofocus). */
  autoFocusChecked?: boolean;
}) {
  const errorId = useId();
  const invalid = !!errors && errors.length > 0;
  return (
    <fieldset
      className="form-field privacy-choice"
      aria-describedby={invalid ? errorId : undefined}
      disabled={disabled}
    >
      <legend>Privacy</legend>
      {PRIVACY_VALUES.map((v) => (
        <label key={v} className="radio">
          <input
            type="radio"
            name={name}
            value={v}
            checked={value === v}
            onChange={() => onChange(v)}
            data-autofocus={autoFocusChecked && value === v ? true : undefined}
            // Each radio button carries the group's error, so it is read wherever the focus lands.
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? errorId : undefined}
          />
          <span>
            <strong>{PRIVACY_LABELS[v]}</strong> <span className="muted">— {PRIVACY_HINTS[v]}</span>
          </span>
        </label>
      ))}
      {invalid && (
        <p className="field-error" id={errorId}>
          {errors.join(' ')}
        </p>
      )}
    </fieldset>
  );
}
