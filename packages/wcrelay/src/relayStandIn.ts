import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { checkPublishTtl, SESSION_SETUP_TTL } from './publishRules.js';
import { RelayAuthError, verifyRelayAuth } from './relayAuth.js';

/**
 * A stand-in for WalletConnect's relay on loopback, for tests only: the real relay cannot be reached from
 * here. It speaks the relay's JSON-RPC over a WebSocket as `@walletconnect/sign-client` 2.25 uses it
 * (`irn_subscribe`, `irn_batchSubscribe`, `irn_unsubscribe`, `irn_batchUnsubscribe`, `irn_publish`,
 * `irn_batchFetchMessages`, the session set-up methods `wc_proposeSession` and `wc_approveSession`, and
 * `irn_subscription` towards the client, which must acknowledge it), and it checks what it is sent:
 *
 * - at the WebSocket upgrade, the `projectId` (32 hex digits, the one the stand-in was started with), the `auth` JWT (an
 *   Ed25519 `did:key` issuer, a valid signature, audience this relay's URL, not expired) and the `ua`;
 * - for each message, the JSON-RPC 2.0 shape, the method, each topic (64 lower-case hex digits), and the
 *   ttl and tag of each publish against the protocol's table ({@link PUBLISH_RULES}).
 *
 * What it refuses gets a JSON-RPC error (or, at the upgrade, an HTTP error) and is written down in
 * `refusals`, so a test can assert that a real client was refused nothing.
 */
export interface StartRelayStandInOptions {
  /** The WalletConnect project id clients must connect with: 32 hex digits, as WalletConnect Cloud issues them. */
  projectId: string;
  /** The port on 127.0.0.1; a free one when left out. */
  port?: number;
  /** The clock, in milliseconds (message ttls, the JWT's expiry); `Date.now` when left out. */
  now?: () => number;
  /**
   * How often to ping each socket, in milliseconds (the real relay pings; a Node client that hears nothing
   * for 35 seconds drops the connection). Default 10 seconds.
   */
  pingIntervalMs?: number;
}

/** A socket a client opened, as the stand-in accepted it. */
export interface RelayConnection {
  /** The client's identity: its `did:key` (the JWT's issuer). */
  clientId: string;
  projectId: string;
  /** The client's user agent, e.g. `wc-2/js-2.25.0/…`. */
  ua: string;
}

/** One JSON-RPC request a client sent, accepted or not. */
export interface RelayRequest {
  clientId: string;
  method: string;
  params: unknown;
}

/** Something the stand-in refused, and why. */
export interface RelayRefusal {
  /** `connect`: the WebSocket upgrade; `request`: a JSON-RPC request on an open socket. */
  stage: 'connect' | 'request';
  /** The HTTP status (connect) or the JSON-RPC error code (request). */
  code: number;
  reason: string;
  method?: string;
}

export interface RelayStandIn {
  /** `ws://127.0.0.1:<port>`: the relay URL to configure clients with (and the JWT audience it expects). */
  url: string;
  connections: RelayConnection[];
  requests: RelayRequest[];
  refusals: RelayRefusal[];
  /** Closes every socket and stops listening. */
  close(): Promise<void>;
}

/** JSON-RPC error codes. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

const TOPIC = /^[0-9a-f]{64}$/;
const PROJECT_ID = /^[0-9a-f]{32}$/;
const USER_AGENT = /^wc-2\/js-\d+\.\d+\.\d+/;
/** The relay's limit on topics in one batch request. */
const MAX_BATCH_TOPICS = 500;
/** Optional publish fields the SDK adds for the relay's own bookkeeping (`RelayerTypes.ITVF`). */
const TVF_FIELDS = new Set([
  'correlationId',
  'rpcMethods',
  'chainId',
  'txHashes',
  'contractAddresses',
  'approvedChains',
  'approvedMethods',
  'approvedEvents',
  'sessionProperties',
  'scopedProperties',
]);

interface StoredMessage {
  key: string;
  topic: string;
  message: string;
  tag: number;
  attestation: string | undefined;
  publishedAt: number;
  expiresAt: number;
  publisher: string;
}

interface Client {
  socket: WebSocket;
  clientId: string;
  /** Topic → subscription id. */
  subscriptions: Map<string, string>;
}

class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Starts a relay stand-in on 127.0.0.1 (see {@link StartRelayStandInOptions}).
 *
 * @example
 * ```ts
 * const relay = await startRelayStandIn({ projectId: 'test-project' });
 * // SignClient.init({ projectId: 'test-project', relayUrl: relay.url, … })
 * expect(relay.refusals).toEqual([]);
 * await relay.close();
 * ```
 */
export async function startRelayStandIn(options: StartRelayStandInOptions): Promise<RelayStandIn> {
  if (!PROJECT_ID.test(options.projectId)) throw new Error('a WalletConnect project id is 32 hex digits');
  const now = options.now ?? Date.now;
  const connections: RelayConnection[] = [];
  const requests: RelayRequest[] = [];
  const refusals: RelayRefusal[] = [];
  const clients = new Set<Client>();
  const messages = new Map<string, StoredMessage[]>();
  /** Message key → the client ids that acknowledged it. */
  const acknowledged = new Map<string, Set<string>>();
  /** irn_subscription id → the delivery it waits an acknowledgement for. */
  const awaitingAck = new Map<number, { clientId: string; key: string }>();
  let nextDeliveryId = 1;
  let url = '';

  const http = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket only\n');
  });
  const sockets = new WebSocketServer({ noServer: true });

  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    let accepted: RelayConnection;
    try {
      accepted = checkUpgrade(request);
    } catch (error) {
      const { code, message } = error instanceof Refusal ? error : new Refusal(400, String(error));
      refusals.push({ stage: 'connect', code, reason: message });
      const body = JSON.stringify({ error: message });
      socket.end(
        `HTTP/1.1 ${code} Refused\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      connections.push(accepted);
      const client: Client = { socket: ws, clientId: accepted.clientId, subscriptions: new Map() };
      clients.add(client);
      ws.on('message', (data) => onMessage(client, data.toString()));
      ws.on('close', () => clients.delete(client));
      ws.on('error', () => clients.delete(client));
    });
  });

  function checkUpgrade(request: IncomingMessage): RelayConnection {
    const target = new URL(request.url ?? '/', url);
    if (target.pathname !== '/') throw new Refusal(404, `no relay at path ${target.pathname}`);
    const projectId = target.searchParams.get('projectId');
    if (projectId === null || projectId === '') throw new Refusal(400, 'projectId is missing');
    if (!PROJECT_ID.test(projectId)) throw new Refusal(400, `projectId ${projectId} is not 32 hex digits`);
    if (projectId !== options.projectId) throw new Refusal(403, `unknown projectId ${projectId}`);
    const auth = target.searchParams.get('auth');
    if (auth === null || auth === '') throw new Refusal(401, 'auth is missing');
    let clientId: string;
    try {
      clientId = verifyRelayAuth(auth, url, now()).iss;
    } catch (error) {
      if (error instanceof RelayAuthError) throw new Refusal(401, error.message);
      throw error;
    }
    const ua = target.searchParams.get('ua') ?? '';
    if (!USER_AGENT.test(ua))
      throw new Refusal(400, `ua ${JSON.stringify(ua)} is not a WalletConnect client's`);
    return { clientId, projectId, ua };
  }

  function onMessage(client: Client, text: string): void {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      refuse(client, null, PARSE_ERROR, 'not JSON');
      return;
    }
    if (!isRecord(payload) || payload.jsonrpc !== '2.0' || !isRpcId(payload.id)) {
      refuse(
        client,
        isRecord(payload) && isRpcId(payload.id) ? payload.id : null,
        INVALID_REQUEST,
        'not a JSON-RPC 2.0 message with an id',
      );
      return;
    }
    const { id } = payload;
    if (!('method' in payload)) {
      onResponse(client, payload);
      return;
    }
    const { method, params } = payload;
    if (typeof method !== 'string') {
      refuse(client, id, INVALID_REQUEST, 'method is not a string');
      return;
    }
    requests.push({ clientId: client.clientId, method, params });
    try {
      if (!isRecord(params)) throw new Refusal(INVALID_PARAMS, 'params must be an object');
      send(client, { id, jsonrpc: '2.0', result: handle(client, method, params) });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      refuse(client, id, error.code, error.message, method);
    }
  }

  function handle(client: Client, method: string, params: Record<string, unknown>): unknown {
    switch (method) {
      case 'irn_subscribe':
        onlyFields(params, ['topic']);
        return subscribe(client, readTopic(params.topic, 'topic'));
      case 'irn_batchSubscribe': {
        onlyFields(params, ['topics']);
        return readTopics(params.topics).map((topic) => subscribe(client, topic));
      }
      case 'irn_unsubscribe': {
        onlyFields(params, ['topic', 'id']);
        const topic = readTopic(params.topic, 'topic');
        if (typeof params.id !== 'string') throw new Refusal(INVALID_PARAMS, 'id must be a string');
        client.subscriptions.delete(topic);
        return true;
      }
      case 'irn_batchUnsubscribe': {
        onlyFields(params, ['subscriptions']);
        const list = params.subscriptions;
        if (!Array.isArray(list) || list.length === 0 || list.length > MAX_BATCH_TOPICS) {
          throw new Refusal(INVALID_PARAMS, `subscriptions must be 1 to ${MAX_BATCH_TOPICS} entries`);
        }
        for (const entry of list) {
          if (!isRecord(entry) || typeof entry.id !== 'string') {
            throw new Refusal(INVALID_PARAMS, 'each subscription needs a topic and an id');
          }
          client.subscriptions.delete(readTopic(entry.topic, 'topic'));
        }
        return true;
      }
      case 'irn_batchFetchMessages': {
        onlyFields(params, ['topics']);
        const topics = readTopics(params.topics);
        const found = topics.flatMap((topic) =>
          liveMessages(topic)
            .filter((stored) => stored.publisher !== client.clientId)
            .map((stored) => messageData(stored)),
        );
        return { messages: found, hasMore: false };
      }
      case 'irn_publish': {
        onlyFields(params, ['topic', 'message', 'ttl', 'tag', 'prompt', 'attestation', ...TVF_FIELDS]);
        const topic = readTopic(params.topic, 'topic');
        const problem = checkPublishTtl(params.tag, params.ttl);
        if (problem !== null) throw new Refusal(INVALID_PARAMS, problem);
        if (params.prompt !== undefined && typeof params.prompt !== 'boolean') {
          throw new Refusal(INVALID_PARAMS, 'prompt must be a boolean');
        }
        publish(client, topic, readMessage(params.message, 'message'), {
          ttl: params.ttl as number,
          tag: params.tag as number,
          attestation: readAttestation(params.attestation),
        });
        return true;
      }
      case 'wc_proposeSession': {
        onlyFields(params, ['pairingTopic', 'sessionProposal', 'ttl', 'attestation', ...TVF_FIELDS]);
        const pairingTopic = readTopic(params.pairingTopic, 'pairingTopic');
        const proposal = readMessage(params.sessionProposal, 'sessionProposal');
        readSetupTtl(params.ttl);
        // The relay subscribes the proposer to the pairing topic, where the answer will come.
        subscribe(client, pairingTopic);
        publish(client, pairingTopic, proposal, {
          ttl: SESSION_SETUP_TTL,
          tag: 1100,
          attestation: readAttestation(params.attestation),
        });
        return true;
      }
      case 'wc_approveSession': {
        onlyFields(params, [
          'sessionTopic',
          'pairingTopic',
          'sessionProposalResponse',
          'sessionSettlementRequest',
          'ttl',
          'attestation',
          ...TVF_FIELDS,
        ]);
        const sessionTopic = readTopic(params.sessionTopic, 'sessionTopic');
        const pairingTopic = readTopic(params.pairingTopic, 'pairingTopic');
        if (sessionTopic === pairingTopic)
          throw new Refusal(INVALID_PARAMS, 'sessionTopic is the pairingTopic');
        const response = readMessage(params.sessionProposalResponse, 'sessionProposalResponse');
        const settlement = readMessage(params.sessionSettlementRequest, 'sessionSettlementRequest');
        readSetupTtl(params.ttl);
        // The relay subscribes the approver to the new session topic, where the settlement's answer comes.
        subscribe(client, sessionTopic);
        publish(client, pairingTopic, response, {
          ttl: SESSION_SETUP_TTL,
          tag: 1101,
          attestation: undefined,
        });
        publish(client, sessionTopic, settlement, {
          ttl: SESSION_SETUP_TTL,
          tag: 1102,
          attestation: undefined,
        });
        return true;
      }
      default:
        throw new Refusal(METHOD_NOT_FOUND, `method ${method} is not one the relay answers`);
    }
  }

  function subscribe(client: Client, topic: string): string {
    const subscriptionId = createHash('sha256').update(`${topic}${client.clientId}`).digest('hex');
    client.subscriptions.set(topic, subscriptionId);
    // Deliver after the answer to the subscribe request has gone out.
    setImmediate(() => {
      for (const stored of liveMessages(topic)) deliver(client, stored);
    });
    return subscriptionId;
  }

  function publish(
    client: Client,
    topic: string,
    message: string,
    { ttl, tag, attestation }: { ttl: number; tag: number; attestation: string | undefined },
  ): void {
    const publishedAt = now();
    const stored: StoredMessage = {
      key: createHash('sha256').update(`${topic}\n${message}`).digest('hex'),
      topic,
      message,
      tag,
      attestation,
      publishedAt,
      expiresAt: publishedAt + ttl * 1000,
      publisher: client.clientId,
    };
    const list = liveMessages(topic);
    if (!list.some((existing) => existing.key === stored.key)) list.push(stored);
    messages.set(topic, list);
    setImmediate(() => {
      for (const other of clients) if (other.subscriptions.has(topic)) deliver(other, stored);
    });
  }

  function deliver(client: Client, stored: StoredMessage): void {
    // The relay does not echo a message to the client that published it.
    if (stored.publisher === client.clientId) return;
    if (acknowledged.get(stored.key)?.has(client.clientId)) return;
    const subscriptionId = client.subscriptions.get(stored.topic);
    if (subscriptionId === undefined || stored.expiresAt <= now()) return;
    const id = nextDeliveryId++;
    awaitingAck.set(id, { clientId: client.clientId, key: stored.key });
    send(client, {
      id,
      jsonrpc: '2.0',
      method: 'irn_subscription',
      params: { id: subscriptionId, data: messageData(stored) },
    });
  }

  function onResponse(client: Client, payload: Record<string, unknown>): void {
    const id = payload.id;
    const waiting = typeof id === 'number' ? awaitingAck.get(id) : undefined;
    if (waiting === undefined || waiting.clientId !== client.clientId) {
      refusals.push({
        stage: 'request',
        code: INVALID_REQUEST,
        reason: `an answer to no delivery (id ${String(id)})`,
      });
      return;
    }
    awaitingAck.delete(id as number);
    if (payload.result !== true) {
      refusals.push({
        stage: 'request',
        code: INVALID_REQUEST,
        reason: `delivery ${String(id)} not acknowledged with true`,
      });
      return;
    }
    const ackers = acknowledged.get(waiting.key) ?? new Set<string>();
    ackers.add(client.clientId);
    acknowledged.set(waiting.key, ackers);
  }

  function liveMessages(topic: string): StoredMessage[] {
    const list = (messages.get(topic) ?? []).filter((stored) => stored.expiresAt > now());
    messages.set(topic, list);
    return list;
  }

  function refuse(client: Client, id: unknown, code: number, reason: string, method?: string): void {
    refusals.push({ stage: 'request', code, reason, ...(method === undefined ? {} : { method }) });
    send(client, { id: id ?? null, jsonrpc: '2.0', error: { code, message: reason } });
  }

  function send(client: Client, payload: unknown): void {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(payload));
  }

  const pings = setInterval(() => {
    for (const client of clients) if (client.socket.readyState === client.socket.OPEN) client.socket.ping();
  }, options.pingIntervalMs ?? 10_000);
  pings.unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('the relay stand-in has no port');
  url = `ws://127.0.0.1:${address.port}`;

  return {
    url,
    connections,
    requests,
    refusals,
    async close() {
      clearInterval(pings);
      for (const client of clients) client.socket.terminate();
      sockets.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function messageData(stored: StoredMessage) {
  return {
    topic: stored.topic,
    message: stored.message,
    publishedAt: stored.publishedAt,
    tag: stored.tag,
    ...(stored.attestation === undefined ? {} : { attestation: stored.attestation }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRpcId(value: unknown): value is number | string {
  return (
    (typeof value === 'number' && Number.isSafeInteger(value)) ||
    (typeof value === 'string' && /^\d+$/.test(value))
  );
}

function onlyFields(params: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw new Refusal(INVALID_PARAMS, `unexpected param ${key}`);
  }
}

function readTopic(value: unknown, name: string): string {
  if (typeof value !== 'string' || !TOPIC.test(value)) {
    throw new Refusal(INVALID_PARAMS, `${name} must be 64 lower-case hex digits`);
  }
  return value;
}

function readTopics(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BATCH_TOPICS) {
    throw new Refusal(INVALID_PARAMS, `topics must be 1 to ${MAX_BATCH_TOPICS} topics`);
  }
  return value.map((topic) => readTopic(topic, 'each topic'));
}

/** A message is the envelope the SDK encrypted, in base64: the relay never reads inside it. */
function readMessage(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) {
    throw new Refusal(INVALID_PARAMS, `${name} must be a base64 envelope`);
  }
  return value;
}

function readAttestation(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new Refusal(INVALID_PARAMS, 'attestation must be a string');
  return value;
}

function readSetupTtl(value: unknown): void {
  if (value !== SESSION_SETUP_TTL) throw new Refusal(INVALID_PARAMS, `ttl must be ${SESSION_SETUP_TTL}`);
}
