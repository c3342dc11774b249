// Bundles the Node-side entry points with esbuild. Native modules (keytar, better-sqlite3)
// and electron stay external: they are loaded at run time from node_modules (or, packaged,
// from app.asar.unpacked after electron-builder rebuilds them for Electron).
import { build } from 'esbuild';

const external = ['electron', 'keytar', 'better-sqlite3'];
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  external,
  logLevel: 'warning',
  sourcemap: false,
};

const entries = [
  // Electron's main process and the sandboxed preload (a sandboxed preload must be one CommonJS file).
  { entryPoints: ['electron/main/main.ts'], outfile: 'dist/electron/main.cjs', format: 'cjs' },
  { entryPoints: ['electron/preload/preload.ts'], outfile: 'dist/electron/preload.cjs', format: 'cjs' },
  // The CLI, usable without tsx once built.
  { entryPoints: ['electron/cli/main.ts'], outfile: 'dist/cli/report-desk.mjs', format: 'esm' },
];

for (const entry of entries) await build({ ...common, ...entry });
