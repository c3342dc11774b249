/** The three privacy settings as one radio group, each with what it means; an error is read on every button. */
import { useId } from 'react';
import type { RendererMessageId as MessageId } from '../../../shared/i18n/messages';
import { PRIVACY_VALUES, type PrivacyValue } from '../../../shared/model';
import { useWords } from '../lib/i18n';
import { privacyLabel } from '../lib/reportWords';
import { FieldErrors } from './FormField';

const PRIVACY_HINTS: Record<PrivacyValue, MessageId> = {
  0: 'report.privacy.public.hint',
  1: 'report.privacy.private.hint',
  2: 'report.privacy.password.hint',
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
  const words = useWords();
  const errorId = useId();
  const invalid = !!errors && errors.length > 0;
  return (
    <fieldset
      className="form-field privacy-choice"
      aria-describedby={invalid ? errorId : undefined}
      disabled={disabled}
    >
      <legend>{words('report.field.privacy')}</legend>
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
            {words.rich('report.privacy.choice', {
              name: <strong>{privacyLabel(words, v)}</strong>,
              hint: <span className="muted">{words(PRIVACY_HINTS[v])}</span>,
            })}
          </span>
        </label>
      ))}
      {invalid && <FieldErrors id={errorId} errors={errors} />}
    </fieldset>
  );
}
