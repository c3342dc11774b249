// What a TypeScript source file imports, read with TypeScript's own parser: static imports and
// re-exports (type-only ones marked), and import() calls with a literal path. Two users:
// tests/helpers/importGraph.ts (no import cycles anywhere, a dynamic import() and a type-only
// edge included) and scripts/catalogues.mjs (which messages the renderer's first screen says:
// the modules main.tsx reaches without an import() or a type-only edge).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx)$/;

/** A relative specifier from `from`, as the .ts/.tsx file it names; null for packages and other files. */
export function resolveRelative(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  const withoutJs = base.replace(/\.(m?js|cjs)$/, '');
  if (withoutJs !== base) candidates.push(`${withoutJs}.ts`, `${withoutJs}.tsx`);
  return candidates.find((candidate) => SOURCE.test(candidate) && existsSync(candidate)) ?? null;
}

/** A file's parse tree (the text given, or the file's own). */
export function sourceOf(file, text = readFileSync(file, 'utf8')) {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

/**
 * The local modules a file imports: `{ target, typeOnly, dynamic }` for each import and
 * re-export declaration and each import('…') call with a literal path.
 */
export function moduleImports(file) {
  const source = sourceOf(file);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const specifier = node.moduleSpecifier;
      const target = ts.isStringLiteral(specifier) ? resolveRelative(file, specifier.text) : null;
      const typeOnly = ts.isImportDeclaration(node)
        ? node.importClause?.isTypeOnly === true
        : node.isTypeOnly === true;
      if (target) found.push({ target, typeOnly, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      const target = resolveRelative(file, node.arguments[0].text);
      if (target) found.push({ target, typeOnly: false, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The files `entry` runs with at once: static, value imports only (no import(), no `import type`). */
export function staticClosure(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const edge of moduleImports(file)) if (!edge.dynamic && !edge.typeOnly) visit(edge.target);
  };
  visit(resolve(entry));
  return seen;
}

/**
 * The message ids a file names: each string literal that is one of `ids`, and each id a template
 * literal starts (`errors.${code}` names every `errors.` id).
 */
export function messageIdsIn(file, ids) {
  const named = new Set();
  const prefixes = [];
  const visit = (node) => {
    if (ts.isStringLiteralLike(node) && ids.has(node.text)) named.add(node.text);
    else if (ts.isTemplateExpression(node) && /^[a-z_]+\./.test(node.head.text))
      prefixes.push(node.head.text);
    ts.forEachChild(node, visit);
  };
  visit(sourceOf(file));
  for (const id of ids) if (prefixes.some((prefix) => id.startsWith(prefix))) named.add(id);
  return named;
}
