import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is loaded from file:// in the packaged app, so asset paths must be relative.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: false,
  },
});
