// Linted as renderer/src/components/<file>: the right way — every word from the catalogue; text
// without letters (a sign, a symbol) is no word.
declare function useWords(): (id: string, values?: Record<string, unknown>) => string;

export function Fixture({ count }: { count: number }) {
  const words = useWords();
  return (
    <button type="button" title={words('reports.new_report.title')} aria-label={words('toast.dismiss')}>
      {words('reports.selection.count', { count })} — ×
    </button>
  );
}
