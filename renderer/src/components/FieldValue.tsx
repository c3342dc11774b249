/**
 * Renders any JSON value the service sent in a readable way: scalars as text, dates in the
 * user's locale, objects as nested definition lists and arrays as lists — never a raw blob.
 */
import type { ReactNode } from 'react';
import { humanizeKey, isIsoDateTime } from '../lib/format';
import { useWords } from '../lib/i18n';
import { DateText } from './Badges';

export function FieldValue({ value }: { value: unknown }) {
  const words = useWords();
  if (value === null || value === undefined) return <span className="muted">{words('field.none')}</span>;
  if (typeof value === 'boolean') return <span>{words(value ? 'field.yes' : 'field.no')}</span>;
  if (typeof value === 'number' || typeof value === 'bigint') return <span>{String(value)}</span>;
  if (typeof value === 'string') {
    if (value === '') return <span className="muted">{words('field.empty')}</span>;
    if (isIsoDateTime(value)) return <DateText value={value} />;
    // The service's own text, in its own direction (issue 28).
    return (
      <span className="field-text" dir="auto">
        {value}
      </span>
    );
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">{words('field.empty_list')}</span>;
    return (
      <ol className="field-list">
        {value.map((item, index) => (
          <li key={index}>
            <FieldValue value={item} />
          </li>
        ))}
      </ol>
    );
  }
  if (typeof value === 'object') return <FieldTable fields={value as Record<string, unknown>} nested />;
  return <span>{String(value)}</span>;
}

interface FieldRowProps {
  label: string;
  /** A tooltip on the label, e.g. the service's own name for the field. */
  labelTitle?: string;
  valueClassName?: string;
  children: ReactNode;
}

/**
 * One label and its value inside a `<dl className="fields">`. A label with the service's own name
 * for its field (`labelTitle`) is the service's word: it keeps its own direction (issue 28).
 */
export function FieldRow({ label, labelTitle, valueClassName, children }: FieldRowProps) {
  return (
    <div className="field-row">
      <dt title={labelTitle} dir={labelTitle === undefined ? undefined : 'auto'}>
        {label}
      </dt>
      <dd className={valueClassName}>{children}</dd>
    </div>
  );
}

/** A key/value list of fields; `nested` tightens the layout for values inside values. */
export function FieldTable({
  fields,
  nested = false,
}: {
  fields: Record<string, unknown>;
  nested?: boolean;
}) {
  const words = useWords();
  const entries = Object.entries(fields);
  if (entries.length === 0) return <span className="muted">{words('field.no_fields')}</span>;
  return (
    <dl className={nested ? 'fields fields-nested' : 'fields'}>
      {entries.map(([key, value]) => (
        <FieldRow key={key} label={humanizeKey(key)} labelTitle={key}>
          <FieldValue value={value} />
        </FieldRow>
      ))}
    </dl>
  );
}
