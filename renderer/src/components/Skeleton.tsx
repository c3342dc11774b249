export function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <tr key={row} className="skeleton-row" aria-hidden="true">
          {Array.from({ length: columns }, (_, col) => (
            <td key={col}>
              <span className="skeleton" style={{ width: `${40 + ((row * 7 + col * 13) % 50)}%` }} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

export function SkeletonBlock({ lines = 4 }: { lines?: number }) {
  return (
    <div className="skeleton-block" aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton" style={{ width: `${55 + ((i * 17) % 40)}%` }} />
      ))}
    </div>
  );
}

/** Announces loading to screen readers while the skeleton shows. */
export function LoadingStatus({ label }: { label: string }) {
  return (
    <p className="visually-hidden" role="status">
      {label}
    </p>
  );
}

/** A skeleton and its screen-reader announcement: what a loading block shows, always as a pair. */
export function LoadingPlaceholder({ lines, label }: { lines: number; label: string }) {
  return (
    <>
      <SkeletonBlock lines={lines} />
      <LoadingStatus label={label} />
    </>
  );
}
