import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from './databases.js';
import { listenOnLoopback } from './rawHttp.js';
import { createTestApp } from './testApp.js';

// About HTTP, not storage: SQLite is enough.
const db = useTestDatabase('sqlite');

/** What Chromium sends. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire, not decoded. */
  body: Buffer;
}

/** One request over a real connection; the path is sent exactly as given (no normalising of `..`). */
function fetchRaw(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** The body decoded as its `Content-Encoding` says. */
function decoded(answer: Answer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return gunzipSync(answer.body).toString();
  expect(encoding).toBeUndefined();
  return answer.body.toString();
}

function expectVaryOnEncoding(answer: Answer): void {
  const vary = String(answer.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);
  expect(vary).toContain('accept-encoding');
}

function expectSecurityHeaders(answer: Answer): void {
  const csp = String(answer.headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-frame-options']).toBe('DENY');
}

describe('the web app, precompressed', () => {
  let parent: string;
  let dir: string;
  // Text long enough that each encoding is smaller than the file, with a marker to tell the files apart.
  const html = `<!doctype html><title>Dial</title>${'<p>Dial, a wallet</p>'.repeat(50)}`;
  const script = `console.log(${JSON.stringify(Array.from({ length: 200 }, (_, i) => `entry ${i}`))});`;
  const gzipOnly = `export const onlyGzip = ${JSON.stringify('g'.repeat(2000))};`;
  const plain = `export const plain = ${JSON.stringify('p'.repeat(2000))};`;

  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'dial-web-encoding-'));
    dir = join(parent, 'dist');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    const withSiblings = (path: string, text: string, siblings: ('br' | 'gz')[]) => {
      writeFileSync(path, text);
      if (siblings.includes('br')) writeFileSync(`${path}.br`, brotliCompressSync(text));
      if (siblings.includes('gz')) writeFileSync(`${path}.gz`, gzipSync(text, { level: 9 }));
    };
    withSiblings(join(dir, 'index.html'), html, ['br', 'gz']);
    withSiblings(join(dir, 'assets', 'index-abc123.js'), script, ['br', 'gz']);
    withSiblings(join(dir, 'assets', 'gzip-only-abc123.js'), gzipOnly, ['gz']);
    withSiblings(join(dir, 'assets', 'plain-abc123.js'), plain, []);
    // Beside the web app's folder, precompressed too: never to be served.
    withSiblings(join(parent, 'secret.txt'), 'root:x:0:0:the secret', ['br', 'gz']);
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  async function serve(): Promise<number> {
    const t = await createTestApp(db(), { config: { webDistDir: dir } });
    return listenOnLoopback(t.app);
  }

  it("sends a browser the brotli file, with its length, the script's type, a year's cache and Vary", async () => {
    const port = await serve();
    const answer = await fetchRaw(port, '/assets/index-abc123.js', { 'accept-encoding': BROWSER_ENCODINGS });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.body).toEqual(readFileSync(join(dir, 'assets', 'index-abc123.js.br')));
    expect(answer.headers['content-length']).toBe(String(answer.body.length));
    expect(decoded(answer)).toBe(script);
    expect(answer.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(answer.headers['cache-control']).toBe(IMMUTABLE);
    expectVaryOnEncoding(answer);
    expectSecurityHeaders(answer);
  });

  it('sends gzip to a client that takes only gzip, and the file itself to one that names no encoding', async () => {
    const port = await serve();
    const gzip = await fetchRaw(port, '/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body).toEqual(readFileSync(join(dir, 'assets', 'index-abc123.js.gz')));
    expect(gzip.headers['content-length']).toBe(String(gzip.body.length));
    expect(gzip.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(gzip.headers['cache-control']).toBe(IMMUTABLE);
    expectVaryOnEncoding(gzip);

    const identity = await fetchRaw(port, '/assets/index-abc123.js');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.toString()).toBe(script);
    expect(identity.headers['content-length']).toBe(String(Buffer.byteLength(script)));
    expect(identity.headers['cache-control']).toBe(IMMUTABLE);
    // The file itself was chosen by the (missing) Accept-Encoding too: a shared cache must not give it to
    // a browser that takes brotli, nor brotli to this client.
    expectVaryOnEncoding(identity);
  });

  it.each([
    ['br;q=0, gzip', 'gzip'],
    ['gzip, br;q=0', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*;q=0', undefined],
    ['identity', undefined],
    ['gzip;q=0.9, br;q=0.1', 'gzip'],
    ['gzip, br', 'br'],
    ['*', 'gzip'],
  ])('with Accept-Encoding %j sends %s', async (acceptEncoding, expected) => {
    const port = await serve();
    const answer = await fetchRaw(port, '/assets/index-abc123.js', { 'accept-encoding': acceptEncoding });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(expected);
    expect(decoded(answer)).toBe(script);
    expectVaryOnEncoding(answer);
  });

  it('answers HEAD with the headers GET has (the encoded length) and no body', async () => {
    const port = await serve();
    const headers = { 'accept-encoding': BROWSER_ENCODINGS };
    const get = await fetchRaw(port, '/assets/index-abc123.js', headers);
    const head = await fetchRaw(port, '/assets/index-abc123.js', headers, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of [
      'content-encoding',
      'content-length',
      'content-type',
      'cache-control',
      'etag',
      'vary',
    ]) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
    expect(head.headers['content-encoding']).toBe('br');
  });

  it('falls back to gzip when a file has no brotli sibling, and to the file when it has neither', async () => {
    const port = await serve();
    const headers = { 'accept-encoding': BROWSER_ENCODINGS };
    const gzipOnlyAnswer = await fetchRaw(port, '/assets/gzip-only-abc123.js', headers);
    expect(gzipOnlyAnswer.status).toBe(200);
    expect(gzipOnlyAnswer.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzipOnlyAnswer)).toBe(gzipOnly);
    expect(gzipOnlyAnswer.headers['cache-control']).toBe(IMMUTABLE);

    const plainAnswer = await fetchRaw(port, '/assets/plain-abc123.js', headers);
    expect(plainAnswer.status).toBe(200);
    expect(plainAnswer.headers['content-encoding']).toBeUndefined();
    expect(plainAnswer.body.toString()).toBe(plain);
    expect(plainAnswer.headers['cache-control']).toBe(IMMUTABLE);
    expectVaryOnEncoding(plainAnswer);
  });

  it('gives each encoding its own ETag, and answers 304 to a revalidation that names it', async () => {
    const port = await serve();
    const br = await fetchRaw(port, '/', { 'accept-encoding': 'br' });
    const gzip = await fetchRaw(port, '/', { 'accept-encoding': 'gzip' });
    expect(br.headers.etag).toEqual(expect.any(String));
    expect(gzip.headers.etag).toEqual(expect.any(String));
    expect(br.headers.etag).not.toBe(gzip.headers.etag);

    const again = await fetchRaw(port, '/', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  it('sends index.html at / compressed, no-cache, with the security headers', async () => {
    const port = await serve();
    const answer = await fetchRaw(port, '/', {
      accept: BROWSER_ACCEPT,
      'accept-encoding': BROWSER_ENCODINGS,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(decoded(answer)).toBe(html);
    expectVaryOnEncoding(answer);
    expectSecurityHeaders(answer);
  });

  it("sends the app's HTML for a screen's URL compressed, no-cache, with the security headers (GET and HEAD)", async () => {
    const port = await serve();
    const headers = { accept: BROWSER_ACCEPT, 'accept-encoding': BROWSER_ENCODINGS };
    const answer = await fetchRaw(port, '/send?to=%2B447400123456', headers);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(decoded(answer)).toBe(html);
    expectVaryOnEncoding(answer);
    expectSecurityHeaders(answer);

    const head = await fetchRaw(port, '/send', headers, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(answer.headers['content-length']);
    expectSecurityHeaders(head);

    const gzip = await fetchRaw(port, '/send', { accept: BROWSER_ACCEPT, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(html);
  });

  it('keeps a missing asset, and a script asking for a screen, a JSON 404 (never a compressed HTML)', async () => {
    const port = await serve();
    for (const [path, accept] of [
      ['/assets/gone-123.js', BROWSER_ACCEPT],
      ['/robots.txt', '*/*'],
    ] as const) {
      const answer = await fetchRaw(port, path, { accept, 'accept-encoding': BROWSER_ENCODINGS });
      expect(answer.status, path).toBe(404);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(answer.body.toString()).error.code).toBe('not_found');
    }
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
  ])('does not serve a file outside its folder, in any encoding: %s', async (path) => {
    const port = await serve();
    for (const encoding of [BROWSER_ENCODINGS, 'gzip', 'identity']) {
      const answer = await fetchRaw(port, path, { accept: '*/*', 'accept-encoding': encoding });
      expect(answer.status, `${path} with ${encoding}`).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      let text = answer.body.toString();
      if (answer.headers['content-encoding'] !== undefined) text = decoded(answer);
      expect(text).not.toContain('root:x');
    }
  });
});
