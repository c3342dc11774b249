/**
 * Laravel's length-aware paginator envelope, as an API resource collection renders it:
 * `{data, links: {first, last, prev, next}, meta: {current_page, from, last_page, links, path,
 * per_page, to, total}}`. Page URLs keep the other query parameters (`withQueryString()`).
 */

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface PaginatedEnvelope<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: PageLink[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

/** Laravel's UrlWindow with onEachSide = 3: which page numbers the meta links show. */
function pageWindow(current: number, last: number): (number | '...')[] {
  const onEachSide = 3;
  const window = onEachSide + 4;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (last < onEachSide * 2 + 8) return range(1, last);
  if (current <= window) return [...range(1, window + onEachSide), '...', last - 1, last];
  if (current > last - window) return [1, 2, '...', ...range(last - (window + (onEachSide - 1)), last)];
  return [1, 2, '...', ...range(current - onEachSide, current + onEachSide), '...', last - 1, last];
}

export function paginate<T>(options: {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  /** Absolute URL of the list without a query, e.g. http://127.0.0.1:8787/api/v1/reports. */
  path: string;
  /** The request's query parameters, in order; `page` is replaced in place or appended. */
  query: [string, string][];
}): PaginatedEnvelope<T> {
  const { items, total, page, perPage, path, query } = options;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const pageUrl = (n: number) => {
    const params = new URLSearchParams();
    let placed = false;
    for (const [key, value] of query) {
      if (key === 'page') {
        if (!placed) params.append('page', String(n));
        placed = true;
      } else {
        params.append(key, value);
      }
    }
    if (!placed) params.append('page', String(n));
    return `${path}?${params.toString()}`;
  };
  const prev = page > 1 ? pageUrl(page - 1) : null;
  const next = page < lastPage ? pageUrl(page + 1) : null;
  const from = items.length > 0 ? (page - 1) * perPage + 1 : null;
  const to = from === null ? null : from + items.length - 1;

  const links: PageLink[] = [{ url: prev, label: '&laquo; Previous', active: false }];
  for (const entry of pageWindow(page, lastPage)) {
    links.push(
      entry === '...'
        ? { url: null, label: '...', active: false }
        : { url: pageUrl(entry), label: String(entry), active: entry === page },
    );
  }
  links.push({ url: next, label: 'Next &raquo;', active: false });

  return {
    data: items,
    links: { first: pageUrl(1), last: pageUrl(lastPage), prev, next },
    meta: { current_page: page, from, last_page: lastPage, links, path, per_page: perPage, to, total },
  };
}
