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
  },
});
