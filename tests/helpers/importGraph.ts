/**
 * A tiny import-graph walk over TypeScript sources, for the "no import cycles" layer check.
 * Type-only imports count too: a cycle of types is still two modules that cannot be
 * understood (or moved) one without the other.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

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

function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  const withoutJs = base.replace(/\.(m?js|cjs)$/, '');
  if (withoutJs !== base) candidates.push(`${withoutJs}.ts`, `${withoutJs}.tsx`);
  return candidates.find((candidate) => SOURCE.test(candidate) && existsSync(candidate)) ?? null;
}

/** The local modules a file names in its imports and re-exports. */
export function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const targets: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier)) continue;
    const target = resolveRelative(file, specifier.text);
    if (target) targets.push(target);
  }
  return targets;
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
