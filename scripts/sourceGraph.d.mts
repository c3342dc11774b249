/** Types for scripts/sourceGraph.mjs. */
export interface ModuleImport {
  target: string;
  typeOnly: boolean;
  dynamic: boolean;
}
export function resolveRelative(from: string, specifier: string): string | null;
export function moduleImports(file: string): ModuleImport[];
export function staticClosure(entry: string): Set<string>;
export function messageIdsIn(file: string, ids: ReadonlySet<string>): Set<string>;
