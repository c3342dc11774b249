import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The reliability and security suite: real service, SQLite, keychain (under
// scripts/with-keyring.sh), Chromium and child processes, so timeouts are generous. Files run
// one at a time: the machine is small, and the leak check's memory samples must be its own.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'reliability',
    environment: 'node',
    include: ['tests/reliability/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // load.test.ts samples the heap after a forced collection.
    execArgv: ['--expose-gc'],
  },
});
