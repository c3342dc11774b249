#!/usr/bin/env node
// The `report-desk` command: runs the bundled CLI (built by `npm run build:node`) on a Node the
// project supports: this one, or the project's (.tools/node24) when this one is older than
// `engines`; with neither, one sentence says what to install (scripts/launcher.mjs). Plain
// JavaScript with nothing newer than Node 18, like the launcher.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chooseNode, exitLike, runStep, stepEnv } from '../scripts/launcher.mjs';

const choice = chooseNode();
if (choice.error) {
  console.error(choice.error);
  process.exit(1);
}
const bundled = fileURLToPath(new URL('../dist/cli/report-desk.mjs', import.meta.url));
if (!existsSync(bundled)) {
  console.error(
    'report-desk: the CLI is not built yet. Run `npm run build:node`, or use `npm run -s cli -- <args>`.',
  );
  process.exit(2);
}
if (choice.node === process.execPath) {
  await import(bundled);
} else {
  exitLike(await runStep([choice.node, bundled, ...process.argv.slice(2)], stepEnv(choice.node)));
}
