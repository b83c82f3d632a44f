import { request as httpRequest } from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/** What came back on a raw connection, and when it was closed. */
export interface RawAnswer {
  /** The status of the first answer, `undefined` when none came. */
  status: number | undefined;
  /** Its header fields, names in lower case. */
  headers: Record<string, string>;
  /** Everything after the first answer's header block. */
  body: string;
  /** Milliseconds from connecting until the server closed the connection (or the wait ran out). */
  closedAfterMs: number;
  /** Whether the server closed it (`false`: the wait ran out with the connection still open). */
  closedByServer: boolean;
  /** The bytes of the request written before the connection closed. */
  bytesWritten: number;
}

/** Listens on an ephemeral loopback port and returns it. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as net.AddressInfo).port;
}

/**
 * Writes `head` on a new connection to `port`, then `trickle` one byte every `intervalMs` (a slow client),
 * and reads until the server closes the connection or `waitMs` passes.
 */
export function rawExchange(
  port: number,
  head: string,
  options: { trickle?: string; intervalMs?: number; waitMs?: number; localAddress?: string } = {},
): Promise<RawAnswer> {
  const { trickle = '', intervalMs = 100, waitMs = 5000 } = options;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({
      port,
      host: '127.0.0.1',
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
    });
    let received = Buffer.alloc(0);
    let written = 0;
    let timer: NodeJS.Timeout | undefined;
    let closedByServer = true;
    const write = (text: string) => {
      if (socket.writable) {
        socket.write(text);
        written += Buffer.byteLength(text);
      }
    };
    socket.on('connect', () => {
      write(head);
      let index = 0;
      if (trickle !== '') {
        timer = setInterval(() => {
          if (index >= trickle.length) return clearInterval(timer);
          write(trickle[index]!);
          index += 1;
        }, intervalMs);
      }
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
    });
    // A reset after the answer is still a close by the server.
    socket.on('error', () => {});
    const giveUp = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, waitMs);
    socket.on('close', () => {
      clearTimeout(giveUp);
      clearInterval(timer);
      resolve({
        ...parseAnswer(received.toString('utf8')),
        closedAfterMs: Date.now() - started,
        closedByServer,
        bytesWritten: written,
      });
    });
  });
}

function parseAnswer(text: string): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return { status: undefined, headers: {}, body: text };
  const [statusLine = '', ...fields] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
  return { status: Number.isNaN(status) ? undefined : status, headers, body: text.slice(end + 4) };
}

/** A JSON POST over a real connection from `localAddress`, without connection reuse. */
export function postFrom(
  port: number,
  path: string,
  body: unknown,
  options: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          origin: 'http://localhost:8080',
          ...options.headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** A kept-alive connection that sends one request at a time and reads each answer in full. */
export interface KeptConnection {
  /** Sends a raw request and resolves with its answer (read up to its Content-Length). */
  send(text: string): Promise<Pick<RawAnswer, 'status' | 'headers' | 'body'>>;
  /** Whether the server has closed the connection. */
  isClosed(): boolean;
  close(): void;
}

/** Opens a connection to `port` and keeps it open between requests. */
export function openConnection(port: number): Promise<KeptConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = '';
    let closed = false;
    let waiting: ((answer: Pick<RawAnswer, 'status' | 'headers' | 'body'>) => void) | undefined;
    const tryAnswer = () => {
      const end = buffer.indexOf('\r\n\r\n');
      if (waiting === undefined || end === -1) return;
      const answer = parseAnswer(buffer);
      const length = Number(answer.headers['content-length'] ?? 0);
      if (Buffer.byteLength(answer.body) < length) return;
      buffer = '';
      const done = waiting;
      waiting = undefined;
      done(answer);
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      tryAnswer();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
    });
    socket.once('error', reject);
    socket.on('connect', () =>
      resolve({
        send(text) {
          return new Promise((done, fail) => {
            if (closed) return fail(new Error('the connection is closed'));
            waiting = done;
            socket.write(text);
            socket.once('close', () => fail(new Error('the server closed the connection')));
          });
        },
        isClosed: () => closed,
        close: () => socket.destroy(),
      }),
    );
  });
}
