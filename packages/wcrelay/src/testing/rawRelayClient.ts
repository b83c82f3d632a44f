import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { WebSocket } from 'ws';
import { didKeyOf } from '../relayAuth.js';

/** A JWT claim set a test may bend. */
export interface AuthClaims {
  iss: string;
  sub: string;
  aud: string;
  iat: number;
  exp: number;
}

/** An Ed25519 key as a WalletConnect client holds it: the private key and its `did:key`. */
export interface ClientKey {
  privateKey: KeyObject;
  did: string;
}

export function createClientKey(): ClientKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  return { privateKey, did: didKeyOf(raw) };
}

/**
 * A relay `auth` JWT as `@walletconnect/relay-auth` makes one, signed by `key`, with `claims` overriding
 * the defaults (issuer the key's did, audience `aud`, a day from now).
 */
export function makeAuth(
  key: ClientKey,
  aud: string,
  claims: Partial<AuthClaims> = {},
  signer = key,
): string {
  const now = Math.floor(Date.now() / 1000);
  const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(
    JSON.stringify({
      iss: key.did,
      sub: randomBytes(32).toString('hex'),
      aud,
      iat: now,
      exp: now + 86_400,
      ...claims,
    }),
  ).toString('base64url');
  const signature = sign(null, Buffer.from(`${header}.${payload}`), signer.privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

/** The relay URL with the query a client connects with. */
export function connectUrl(relayUrl: string, query: Record<string, string | undefined>): string {
  const url = new URL(relayUrl);
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** A bare JSON-RPC client on the relay socket, for checking what the stand-in accepts and refuses. */
export interface RawRelayClient {
  /** Sends a request and resolves to the relay's answer (result or error). */
  call(
    method: string,
    params: unknown,
  ): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
  /** Sends any text and resolves to the next answer. */
  sendRaw(text: string): Promise<{ result?: unknown; error?: { code: number; message: string } }>;
  /** The `irn_subscription` requests received so far. */
  deliveries: { id: number; params: { id: string; data: { topic: string; message: string; tag: number } } }[];
  /** Acknowledges every delivery received (answers `true`). */
  acknowledge(): void;
  close(): void;
}

let nextId = 1;

/** Opens a socket to the stand-in; rejects with the HTTP status when the upgrade is refused. */
export function openRawClient(url: string): Promise<RawRelayClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const waiting = new Map<number | string, (answer: Record<string, unknown>) => void>();
    let rawWaiter: ((answer: Record<string, unknown>) => void) | undefined;
    const deliveries: RawRelayClient['deliveries'] = [];
    socket.on('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.on('error', reject);
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if (message.method === 'irn_subscription') {
        deliveries.push(message as unknown as RawRelayClient['deliveries'][number]);
        return;
      }
      const answer = waiting.get(message.id as number) ?? rawWaiter;
      waiting.delete(message.id as number);
      rawWaiter = undefined;
      answer?.(message);
    });
    socket.on('open', () => {
      resolve({
        call(method, params) {
          const id = nextId++;
          return new Promise((done) => {
            waiting.set(id, done);
            socket.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }));
          });
        },
        sendRaw(text) {
          return new Promise((done) => {
            rawWaiter = done;
            socket.send(text);
          });
        },
        deliveries,
        acknowledge() {
          for (const delivery of deliveries.splice(0)) {
            socket.send(JSON.stringify({ id: delivery.id, jsonrpc: '2.0', result: true }));
          }
        },
        close() {
          socket.close();
        },
      });
    });
  });
}
