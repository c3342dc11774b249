// Linted as renderer/src/components/<file>: an attribute a person reads (here with a screen
// reader) holds a literal.
export function Fixture() {
  return (
    <button type="button" aria-label="Dismiss message">
      ×
    </button>
  );
}
