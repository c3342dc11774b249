#!/usr/bin/env node
// The `report-desk` command: runs the bundled CLI (built by `npm run build:node`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundled = fileURLToPath(new URL('../dist/cli/report-desk.mjs', import.meta.url));
if (!existsSync(bundled)) {
  console.error(
    'report-desk: the CLI is not built yet. Run `npm run build:node`, or use `npm run -s cli -- <args>`.',
  );
  process.exit(2);
}
await import(bundled);
