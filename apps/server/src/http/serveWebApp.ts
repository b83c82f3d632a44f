import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Files under `/assets/` have content hashes in their names, so they never change: cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The siblings the web app's build writes beside each text file (apps/web/plugins/precompress.ts). */
const COMPRESSED_SIBLING = /\.(?:br|gz)$/;

/**
 * Serves the built web app from `dir` when it holds an `index.html`: its files as they are, and `index.html`
 * for a page the browser asks for anywhere else outside `/api`, `/dev` and `/assets` (a GET or HEAD that
 * accepts `text/html`: `/send`, `/receive`, … are the app's screens, routed in the browser). Anything else
 * there (a script's `fetch`, a missing `/robots.txt`) stays `404 not_found`. `index.html` is `no-cache`
 * (revalidated every time, so a new release shows at once); `/assets/*` is immutable. The security headers
 * (CSP included) are the app's `onSend` hook's, on these answers too.
 *
 * Nothing is compressed per request: the build writes a brotli `.br` and a gzip `.gz` beside each text file,
 * and each answer is the sibling the request's `Accept-Encoding` prefers (br, then gzip, then the file
 * itself; an encoding with `q=0` is never sent), with its own `Content-Length` and ETag, the file's
 * `Content-Type`, `Content-Encoding`, and `Vary: Accept-Encoding`. A missing sibling falls back to the next.
 *
 * @returns the SPA fallback for the not-found handler, or `undefined` when there is no web app to serve
 *   (tests, an API-only deployment).
 */
export async function serveWebApp(
  app: FastifyInstance,
  dir: string,
): Promise<((request: FastifyRequest, reply: FastifyReply) => Promise<boolean>) | undefined> {
  if (!existsSync(join(dir, 'index.html'))) {
    app.log.warn({ dir }, 'no built web app found, serving the API only (run `npm run build`)');
    return undefined;
  }
  const { default: fastifyStatic } = await import('@fastify/static');
  await app.register(fastifyStatic, {
    root: dir,
    wildcard: true,
    index: ['index.html'],
    serveDotFiles: false,
    preCompressed: true,
    setHeaders(reply, path) {
      // `path` is the file sent: `index.html.br` for `index.html` when the browser takes brotli.
      const file = path.replace(COMPRESSED_SIBLING, '');
      if (file.endsWith('index.html')) reply.header('cache-control', 'no-cache');
      else if (/[\\/]assets[\\/]/.test(file.slice(dir.length))) reply.header('cache-control', IMMUTABLE);
    },
  });
  return async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    // A missing hashed asset is a stale page asking for an old release: a 404, not the HTML.
    if (request.url.startsWith('/assets/')) return false;
    if (!acceptsHtml(request.headers.accept)) return false;
    await reply.code(200).sendFile('index.html');
    return true;
  };
}

/** Whether an `Accept` header names HTML, as a browser's navigation does (`text/html,application/xhtml+xml,…`). */
function acceptsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}
