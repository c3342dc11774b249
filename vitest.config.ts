import { defineConfig } from 'vitest/config';
import { viteCatalogues, WITHOUT_ICU_PARSER } from './scripts/catalogues.mjs';

// Two projects: Node-side unit/integration tests, and renderer component tests in jsdom.
// Reliability tests have their own config (tests/reliability/vitest.config.ts). Both projects
// read the catalogues as the builds do (scripts/catalogues.mjs); the renderer's, like the
// renderer itself, without FormatJS's ICU parser.
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [viteCatalogues()],
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [viteCatalogues()],
        resolve: { alias: WITHOUT_ICU_PARSER },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['tests/renderer/**/*.test.{ts,tsx}'],
          // The English words, before any component renders.
          setupFiles: ['tests/renderer/setup.ts'],
        },
      },
    ],
  },
});
