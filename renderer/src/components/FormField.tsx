import { useId, type InputHTMLAttributes, type ReactElement, type ReactNode } from 'react';
import { cloneElement, Fragment } from 'react';

interface FormFieldProps {
  label: string;
  /** The control; it receives id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  hint?: ReactNode;
  errors?: readonly string[] | null;
}

/** A labelled control with its hint and its errors, wired for screen readers. */
export function FormField({ label, children, hint, errors }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const hasErrors = !!errors && errors.length > 0;
  const describedBy =
    [hint ? hintId : null, hasErrors ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={hasErrors ? 'form-field has-error' : 'form-field'}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        id,
        'aria-invalid': hasErrors || undefined,
        'aria-describedby': describedBy,
      })}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {hasErrors && <FieldErrors id={errorId} errors={errors} />}
    </div>
  );
}

/**
 * A field's problems, one after the other: each isolated, since a service's own words (a 422) may
 * be in another language and direction than the app's.
 */
export function FieldErrors({ id, errors }: { id: string; errors: readonly string[] }) {
  return (
    <p className="field-error" id={id}>
      {errors.map((error, index) => (
        <Fragment key={index}>
          {index > 0 && ' '}
          <bdi>{error}</bdi>
        </Fragment>
      ))}
    </p>
  );
}

type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  /** Modal puts the focus on the control marked so. */
  'data-autofocus'?: boolean;
};

interface TextFieldProps extends TextInputProps {
  label: string;
  value: string;
  /** Gets the text itself, not the DOM event. */
  onChange: (value: string) => void;
  hint?: ReactNode;
  errors?: readonly string[] | null;
}

/**
 * A FormField around a single-line text input (text, url, password…). What is typed keeps its
 * own direction (issue 28): an address or a key left to right, other text as its first letter says.
 */
export function TextField({ label, value, onChange, hint, errors, ...inputProps }: TextFieldProps) {
  // Empty, a field takes the page's direction (its placeholder is in the page's language).
  const typed = value === '' ? undefined : 'auto';
  const dir = inputProps.dir ?? (inputProps.type === 'url' || inputProps.type === 'password' ? 'ltr' : typed);
  return (
    <FormField label={label} hint={hint} errors={errors}>
      <input {...inputProps} dir={dir} value={value} onChange={(e) => onChange(e.target.value)} />
    </FormField>
  );
}
