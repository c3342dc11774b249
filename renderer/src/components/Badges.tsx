import type { PrivacyValue, ReportResult } from '../../../shared/model';
import { formatDate } from '../lib/format';
import { useWords } from '../lib/i18n';
import { privacyLabel, resultLabel } from '../lib/reportWords';

export function ResultBadge({ result }: { result: ReportResult | null | undefined }) {
  const words = useWords();
  if (!result) return <span className="badge badge-none">{words('report.result.none')}</span>;
  return <span className={`badge badge-result-${result}`}>{resultLabel(words, result)}</span>;
}

export function PrivacyBadge({ privacy }: { privacy: PrivacyValue | null | undefined }) {
  const words = useWords();
  if (privacy === null || privacy === undefined)
    return <span className="badge badge-none">{words('report.privacy.unknown')}</span>;
  return <span className={`badge badge-privacy-${privacy}`}>{privacyLabel(words, privacy)}</span>;
}

/** A date in the user's language, with the exact time on hover. */
export function DateText({ value }: { value: string | null | undefined }) {
  const words = useWords();
  const formatted = formatDate(words, value);
  if (!formatted) return <span className="muted">{value || '—'}</span>;
  return (
    <time dateTime={value ?? undefined} title={formatted.exact}>
      {formatted.text}
    </time>
  );
}
