/** The report screens (detail, edit privacy) until their report is there: loading, or why not. */
import { useWords } from '../lib/i18n';
import { BackToReports } from './BackLink';
import { ScreenFallback, type UnsettledQuery } from './ScreenFallback';

interface ReportFallbackProps {
  query: UnsettledQuery;
  id: string;
  /** The screen's name, e.g. "Report" or "Edit privacy". */
  label: string;
  /** About as many lines as the loaded screen has, so the layout does not jump. */
  skeletonLines: number;
  /** False where the loaded screen's own back link leads elsewhere (to the report, not the list). */
  backLinkWhileLoading?: boolean;
}

export function ReportFallback({
  query,
  id,
  label,
  skeletonLines,
  backLinkWhileLoading,
}: ReportFallbackProps) {
  const words = useWords();
  return (
    <ScreenFallback
      query={query}
      label={label}
      loadingLabel={words('report.loading')}
      skeletonLines={skeletonLines}
      errorTitle={words('report.load_failed', { id })}
      navigation={<BackToReports />}
      navigationWhileLoading={backLinkWhileLoading}
    />
  );
}
