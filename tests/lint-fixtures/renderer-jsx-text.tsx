// Linted as renderer/src/components/<file>: a word between tags is not from the catalogue.
export function Fixture({ busy }: { busy: boolean }) {
  return <button type="button">{busy ? '…' : 'Save'}</button>;
}
