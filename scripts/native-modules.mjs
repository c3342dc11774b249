// Builds the native modules (keytar, better-sqlite3) for the runtime about to load them.
// Node (tests, CLI, preview) and Electron (the app) have different ABIs, and one
// node_modules can hold only one build, so `npm start` switches to Electron's and the test
// command switches back. A marker file remembers the current target to skip needless rebuilds.
//
//   node scripts/native-modules.mjs node       # for Node: npm rebuild
//   node scripts/native-modules.mjs electron   # for Electron: electron-builder install-app-deps
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const NATIVE = ['keytar', 'better-sqlite3'];
const MARKER = 'node_modules/.report-desk-native-target';
const target = process.argv[2];
if (target !== 'node' && target !== 'electron') {
  console.error('usage: node scripts/native-modules.mjs node|electron');
  process.exit(2);
}

const current = existsSync(MARKER) ? readFileSync(MARKER, 'utf8').trim() : 'node';
const require = createRequire(import.meta.url);

function loadsInNode() {
  try {
    for (const name of NATIVE) require(name);
    return true;
  } catch {
    return false;
  }
}

if (target === 'node') {
  if (current === 'node' && loadsInNode()) process.exit(0);
  console.log('native modules: rebuilding keytar and better-sqlite3 for Node');
  execFileSync('npm', ['rebuild', ...NATIVE], { stdio: 'inherit' });
} else {
  if (current === 'electron') process.exit(0);
  console.log("native modules: rebuilding keytar and better-sqlite3 for Electron's ABI");
  execFileSync('npx', ['electron-builder', 'install-app-deps'], { stdio: 'inherit' });
}
writeFileSync(MARKER, target + '\n');
