import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is served from app://reportdesk/ in the app and from 127.0.0.1 in the preview;
// relative asset paths work for both.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Two files (issue 22): what the first screen runs, and everything loaded when first
        // used (renderer/src/lazyParts.tsx). A chunk per screen cost 11 KB more in all, and
        // 15 KB more gzip, in chunk glue and lost compression.
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'later', priority: 1 },
          ],
        },
      },
    },
  },
});
