// Builds the hello page (bench/browser.mjs's reference) with the web app's Vite, React plugin, target and
// precompression, so it is served as Dial's build is. The bench passes the output directory.

import { precompressPlugin } from '@dial/web/plugins/precompress';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), precompressPlugin()],
  logLevel: 'warn',
  build: { target: 'es2022', modulePreload: { polyfill: false }, emptyOutDir: true },
});
