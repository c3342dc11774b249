import { PRIVACY_LABELS, type PrivacyValue, type ReportResult } from '../../../shared/model';
import { formatDate } from '../lib/format';

export const RESULT_LABELS: Record<ReportResult, string> = { good: 'Good', decent: 'Decent', bad: 'Bad' };

export function ResultBadge({ result }: { result: ReportResult | null | undefined }) {
  if (!result) return <span className="badge badge-none">No result</span>;
  return <span className={`badge badge-result-${result}`}>{RESULT_LABELS[result] ?? result}</span>;
}

export function PrivacyBadge({ privacy }: { privacy: PrivacyValue | null | undefined }) {
  if (privacy === null || privacy === undefined) return <span className="badge badge-none">Unknown</span>;
  return (
    <span className={`badge badge-privacy-${privacy}`}>{PRIVACY_LABELS[privacy] ?? String(privacy)}</span>
  );
}

/** A date in the user's locale, with the exact time on hover. */
export function DateText({ value }: { value: string | null | undefined }) {
  const formatted = formatDate(value);
  if (!formatted) return <span className="muted">{value || '—'}</span>;
  return (
    <time dateTime={value ?? undefined} title={formatted.exact}>
      {formatted.text}
    </time>
  );
}
