// Bundles the Node-side entry points with esbuild. Native modules (keytar, better-sqlite3)
// and electron stay external: they are loaded at run time from node_modules (or, packaged,
// from app.asar.unpacked after electron-builder rebuilds them for Electron).
import { build } from 'esbuild';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildCatalogues } from './catalogues.mjs';

const external = ['electron', 'keytar', 'better-sqlite3'];
const common = {
  bundle: true,
  platform: 'node',
  // Electron 45 embeds Node 24; the CLI needs the development Node, 22.12 or later.
  target: 'node22.12',
  external,
  logLevel: 'warning',
  sourcemap: false,
};

const entries = (outDir) => [
  // Electron's main process and the sandboxed preload (a sandboxed preload must be one CommonJS file).
  // import.meta.url (createRequire for keytar) has no CommonJS equivalent esbuild would insert:
  // defined from __filename, so the main bundle has no import.meta and no import() (checked by
  // tests/unit/packaging/bundles.test.ts).
  {
    entryPoints: ['electron/main/main.ts'],
    outfile: join(outDir, 'electron/main.cjs'),
    format: 'cjs',
    // Every catalogue, compiled (virtual:catalogues/all): the menu, dialogs and notifications
    // change language at once, without a file to read.
    plugins: [esbuildCatalogues()],
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  },
  {
    entryPoints: ['electron/preload/preload.ts'],
    outfile: join(outDir, 'electron/preload.cjs'),
    format: 'cjs',
  },
  // The CLI, usable without tsx once built. undici (its proxy support) is CommonJS and requires
  // Node's built-ins: an ES module has no `require`, so the bundle makes one (esbuild's shim uses it).
  {
    entryPoints: ['electron/cli/main.ts'],
    outfile: join(outDir, 'cli/report-desk.mjs'),
    format: 'esm',
    banner: {
      js: "import { createRequire as createCliRequire } from 'node:module'; const require = createCliRequire(import.meta.url);",
    },
  },
];

/** Bundles every Node-side entry point into outDir (dist for the app; tests use a temp folder). */
export async function buildNode(outDir = 'dist') {
  for (const entry of entries(outDir)) await build({ ...common, ...entry });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildNode();
