import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { viteCatalogues, WITHOUT_ICU_PARSER } from './scripts/catalogues.mjs';

/** A catalogue part's module ('\0virtual:catalogue/de/later') → its chunk's name ('catalogue-de-later'). */
function catalogueChunk(moduleId: string): string | null {
  const match = /virtual:catalogue\/([A-Za-z0-9-]+)(\/later)?$/.exec(moduleId);
  return match ? `catalogue-${match[1]}${match[2] ? '-later' : ''}` : null;
}

// The renderer is served from app://reportdesk/ in the app and from 127.0.0.1 in the preview;
// relative asset paths work for both.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), viteCatalogues()],
  resolve: { alias: WITHOUT_ICU_PARSER },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Two files (issue 22): what the first screen runs, and everything loaded when first
        // used (renderer/src/lazyParts.tsx). A chunk per screen cost 11 KB more in all, and
        // 15 KB more gzip, in chunk glue and lost compression. Each language's catalogue is a
        // chunk of its own (issue 28): a window loads only its language's.
        codeSplitting: {
          groups: [
            { name: catalogueChunk, debugName: 'catalogues', test: /virtual:catalogue\//, priority: 3 },
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'later', priority: 1 },
          ],
        },
      },
    },
  },
});
