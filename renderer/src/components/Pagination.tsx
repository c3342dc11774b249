/** Paging under the list: where this page is, previous/next and a window of page numbers. */
import { useWords } from '../lib/i18n';
import { hasNextPage, pageWindow, type ListState } from '../lib/listState';

interface PaginationProps {
  state: ListState;
  total: number | null;
  lastPage: number | null;
  count: number;
  onPage: (page: number) => void;
}

export function Pagination({ state, total, lastPage, count, onPage }: PaginationProps) {
  const words = useWords();
  const { page, perPage } = state;
  const first = count === 0 ? 0 : (page - 1) * perPage + 1;
  const last = (page - 1) * perPage + count;
  const hasNext = hasNextPage(page, perPage, lastPage, count);
  return (
    <nav className="pagination" aria-label={words('pages.label')}>
      <span className="muted" aria-live="polite">
        {count === 0
          ? words('pages.empty')
          : total !== null
            ? words('pages.showing_of', { first, last, total })
            : words('pages.showing', { first, last })}
      </span>
      <div className="pages">
        <button type="button" className="button small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {words('pages.previous')}
        </button>
        {lastPage !== null &&
          lastPage > 1 &&
          pageWindow(page, lastPage).map((p, i) =>
            p === null ? (
              <span key={`gap-${i}`} className="page-gap" aria-hidden="true">
                …
              </span>
            ) : (
              <button
                key={p}
                type="button"
                className={p === page ? 'button small page current' : 'button small page'}
                aria-current={p === page ? 'page' : undefined}
                aria-label={words('pages.page', { page: p })}
                onClick={() => onPage(p)}
              >
                {words.intl.formatNumber(p)}
              </button>
            ),
          )}
        {lastPage === null && <span className="page-only">{words('pages.page', { page })}</span>}
        <button type="button" className="button small" disabled={!hasNext} onClick={() => onPage(page + 1)}>
          {words('pages.next')}
        </button>
      </div>
    </nav>
  );
}
