// Linted as renderer/src/screens/<file>: a component prop named like the text it shows.
declare function ConfirmDialog(props: { confirmLabel: string; onCancel: () => void }): null;

export function Fixture() {
  return <ConfirmDialog confirmLabel={`Delete ${1} report`} onCancel={() => undefined} />;
}
