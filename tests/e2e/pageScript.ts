/**
 * Scripts that run in the page, written in TypeScript against the DOM (tests/e2e/page/, type-checked
 * with the renderer's tsconfig) and bundled here with esbuild, to be installed with
 * `page.addInitScript({ content })` or evaluated once.
 */
import { buildSync } from 'esbuild';
import { resolve } from 'node:path';

const built = new Map<string, string>();

/** The file (relative to tests/e2e/page) bundled as one script that runs as it is evaluated. */
export function pageScript(name: string): string {
  let script = built.get(name);
  if (script === undefined) {
    const result = buildSync({
      entryPoints: [resolve(import.meta.dirname, 'page', name)],
      bundle: true,
      format: 'iife',
      target: 'chrome130',
      write: false,
      logLevel: 'silent',
    });
    script = result.outputFiles[0].text;
    built.set(name, script);
  }
  return script;
}
