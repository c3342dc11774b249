import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { viteCatalogues } from '../../scripts/catalogues.mjs';

// The Node tests as StrykerJS runs them (scripts/mutation.mjs sets MUTATION_TESTS to the test
// files that cover the file being mutated, so each mutant runs only those). Forks, not worker
// threads: keytar and better-sqlite3 are native modules, and keytar crashes when a second
// thread of one process loads it. Stryker asks for `pool: 'threads'` at the root; a project's
// own pool wins over it.
const include = (process.env.MUTATION_TESTS ?? 'tests/unit/**/*.test.ts,tests/integration/**/*.test.ts')
  .split(',')
  .map((pattern) => pattern.trim())
  .filter((pattern) => pattern !== '');

export default defineConfig({
  test: {
    projects: [
      {
        root: fileURLToPath(new URL('../..', import.meta.url)),
        // The main process's words read the catalogues as its build does.
        plugins: [viteCatalogues()],
        test: {
          name: 'mutation',
          environment: 'node',
          include,
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
