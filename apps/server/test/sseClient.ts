import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '../src/auth/sessions.js';

/** One block of a server-sent event stream, as a browser's EventSource reads it. */
export interface SseBlock {
  /** The `event:` field; `message` when absent. */
  event: string;
  /** The `id:` field, when the block has one. */
  id: string | undefined;
  /** The `data:` lines joined; `undefined` for a block without data (an id or retry only). */
  data: string | undefined;
  retry: string | undefined;
  /** Comment lines (`:`), the heartbeats. */
  comments: number;
}

/** A real HTTP client of `GET /api/events` (node:http, no EventSource emulation beyond parsing). */
export interface SseClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every block so far; for an error answer, nothing (the body is in `body`). */
  blocks: SseBlock[];
  /** The raw body so far. */
  body: string;
  /** The blocks that carry data, parsed as JSON, of the default event type. */
  messages(): Array<{ id: string | undefined; data: unknown }>;
  /** Resolves with the first block (from the start) matching `test`, or rejects after `timeoutMs`. */
  waitFor(test: (block: SseBlock) => boolean, timeoutMs?: number): Promise<SseBlock>;
  /** Resolves once the server ended the answer. */
  ended: Promise<void>;
  /** Whether the server ended the answer. */
  isEnded(): boolean;
  close(): void;
}

/** The base URL of an app listening on loopback (starts it on a free port the first time). */
export async function listen(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Opens `path` (default `/api/events`) on `baseUrl` with the session `token`, and waits for the answer's head. */
export function openStream(
  baseUrl: string,
  token: string | undefined,
  options: { path?: string; headers?: Record<string, string> } = {},
): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(options.path ?? '/api/events', baseUrl), {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        ...(token === undefined ? {} : { cookie: `${SESSION_COOKIE}=${token}` }),
        ...options.headers,
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      response.setEncoding('utf8');
      let body = '';
      let pending = '';
      let ended = false;
      const blocks: SseBlock[] = [];
      const waiters = new Set<() => void>();
      const notify = () => {
        for (const waiter of [...waiters]) waiter();
      };
      const sse = response.headers['content-type']?.startsWith('text/event-stream') === true;
      response.on('data', (chunk: string) => {
        body += chunk;
        if (!sse) return;
        pending += chunk;
        let cut = pending.indexOf('\n\n');
        while (cut !== -1) {
          blocks.push(parseBlock(pending.slice(0, cut)));
          pending = pending.slice(cut + 2);
          cut = pending.indexOf('\n\n');
        }
        notify();
      });
      const endedPromise = new Promise<void>((done) => {
        const finish = () => {
          ended = true;
          notify();
          done();
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      });
      const client: SseClient = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        blocks,
        get body() {
          return body;
        },
        messages() {
          return blocks
            .filter((block) => block.event === 'message' && block.data !== undefined)
            .map((block) => ({ id: block.id, data: JSON.parse(block.data!) as unknown }));
        },
        waitFor(test, timeoutMs = 5_000) {
          return new Promise((found, fail) => {
            const check = () => {
              const block = blocks.find(test);
              if (block !== undefined) {
                cleanup();
                found(block);
              } else if (ended) {
                cleanup();
                fail(new Error(`the stream ended without the block; it had: ${JSON.stringify(blocks)}`));
              }
            };
            const timer = setTimeout(() => {
              cleanup();
              fail(
                new Error(`no such block within ${timeoutMs} ms; the stream had: ${JSON.stringify(blocks)}`),
              );
            }, timeoutMs);
            const cleanup = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          });
        },
        ended: endedPromise,
        isEnded: () => ended,
        close() {
          request.destroy();
        },
      };
      streamsToClose.push(client);
      resolve(client);
    });
    request.end();
  });
}

function parseBlock(text: string): SseBlock {
  const block: SseBlock = { event: 'message', id: undefined, data: undefined, retry: undefined, comments: 0 };
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) {
      block.comments += 1;
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') block.event = value;
    else if (field === 'id') block.id = value;
    else if (field === 'retry') block.retry = value;
    else if (field === 'data') block.data = block.data === undefined ? value : `${block.data}\n${value}`;
  }
  return block;
}

const streamsToClose: SseClient[] = [];

/** Closes every stream a test opened (call in `afterEach`, before the apps close). */
export function closeStreams(): void {
  while (streamsToClose.length > 0) streamsToClose.pop()?.close();
}
