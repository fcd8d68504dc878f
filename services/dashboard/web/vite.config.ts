import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webDirectory = fileURLToPath(new URL('.', import.meta.url));

/**
 * The partner dashboard. The build lands beside the compiled server (dist/console), which serves
 * it under a strict CSP: no inline script (so no module-preload polyfill) and no inline style.
 */
export default defineConfig({
  root: webDirectory,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
