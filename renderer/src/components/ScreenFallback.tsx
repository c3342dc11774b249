/** What a screen shows while the query it needs has no data: a skeleton, or the error and Retry. */
import type { ReactNode } from 'react';
import { ErrorView } from './ErrorView';
import { LoadingPlaceholder } from './Skeleton';

/** The parts of a TanStack query result the fallback reads, while it is loading or has failed. */
export interface UnsettledQuery {
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

interface ScreenFallbackProps {
  query: UnsettledQuery;
  /** The section's accessible name: the screen's own heading is not there yet. */
  label?: string;
  loadingLabel: string;
  skeletonLines: number;
  errorTitle: string;
  /** A way back, shown above the error — and above the skeleton unless `navigationWhileLoading` is false. */
  navigation?: ReactNode;
  navigationWhileLoading?: boolean;
}

export function ScreenFallback({
  query,
  label,
  loadingLabel,
  skeletonLines,
  errorTitle,
  navigation,
  navigationWhileLoading = true,
}: ScreenFallbackProps) {
  return (
    <section className="screen" aria-label={label}>
      {(query.isError || navigationWhileLoading) && navigation}
      {query.isError ? (
        <ErrorView error={query.error} title={errorTitle} onRetry={() => void query.refetch()} />
      ) : (
        <LoadingPlaceholder lines={skeletonLines} label={loadingLabel} />
      )}
    </section>
  );
}
