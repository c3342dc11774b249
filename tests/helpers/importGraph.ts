/**
 * A tiny import-graph walk over TypeScript sources, for the "no import cycles" layer check.
 * Type-only imports count too: a cycle of types is still two modules that cannot be
 * understood (or moved) one without the other. So do import() calls: a screen loaded later
 * (renderer/src/lazyParts.tsx) that imports what loads it is a cycle all the same.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { moduleImports } from '../../scripts/sourceGraph.mjs';

const SOURCE = /\.(ts|tsx)$/;

/** Every .ts/.tsx file under the given folders (declaration files left out). */
export function sourceFiles(roots: string[]): string[] {
  const files: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry !== 'node_modules' && entry !== 'dist') walk(join(path, entry));
      }
    } else if (SOURCE.test(path) && !path.endsWith('.d.ts')) files.push(resolve(path));
  };
  for (const root of roots) if (existsSync(root)) walk(root);
  return files;
}

/** The local modules a file names in its imports, re-exports and import() calls. */
export function localImports(file: string): string[] {
  return moduleImports(file).map((edge) => edge.target);
}

/** Each cycle once, as the list of files from its first member back to it, relative to `root`. */
export function findImportCycles(files: string[], root: string): string[][] {
  const edges = new Map(files.map((file) => [file, localImports(file)]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file) ?? localImports(file)) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next)).map((member) => relative(root, member));
        const key = [...cycle].sort().join('|');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle, relative(root, next)]);
        }
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}
