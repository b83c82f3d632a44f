import type { IncomingMessage } from 'node:http';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type ProxyOptions } from 'vite';
import { precompressPlugin } from './plugins/precompress';

const apiServer = 'http://127.0.0.1:8080';

/**
 * The dev server proxies the API so the app keeps using relative, same-origin URLs. The API refuses
 * state-changing requests whose Origin is not its own; a request the browser made same-origin to this dev
 * server has its Origin dropped, so the API falls back to `Sec-Fetch-Site` (which says same-origin). Requests
 * from other sites keep their Origin and are still refused.
 */
const proxy: ProxyOptions = {
  target: apiServer,
  configure(server) {
    server.on('proxyReq', (proxyReq, req: IncomingMessage) => {
      const origin = req.headers.origin;
      if (
        origin !== undefined &&
        req.headers.host !== undefined &&
        new URL(origin).host === req.headers.host
      ) {
        proxyReq.removeHeader('origin');
      }
    });
  },
};

export default defineConfig({
  // react: JSX to `react/jsx-runtime` in the build, and Fast Refresh in the dev server.
  // precompress: the server sends the .br / .gz siblings it writes (apps/server/src/http/serveWebApp.ts).
  plugins: [react(), precompressPlugin()],
  resolve: {
    // '@dial/core' is a workspace package: its "source" export points at the TypeScript source.
    conditions: ['source', ...defaultClientConditions],
  },
  server: {
    proxy: { '/api': proxy, '/dev': proxy },
  },
  build: {
    target: 'es2022',
    // The CSP is `script-src 'self'`: the polyfill would be an inline script.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The first visit's code in one file: main.tsx and every module it imports statically ('$initial').
        // Left to itself, rolldown puts the modules the lazy chunks share with it (errors, ErrorMessage,
        // Vite's preload helper) into files of their own, each one more request before the sign-in form
        // works. The lazy chunks import those from this one instead. `npm run size` counts the files.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
});
