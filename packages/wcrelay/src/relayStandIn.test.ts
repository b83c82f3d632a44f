import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RelayStandIn, startRelayStandIn } from './relayStandIn.js';
import {
  type ClientKey,
  connectUrl,
  createClientKey,
  makeAuth,
  openRawClient,
  type RawRelayClient,
} from './testing/rawRelayClient.js';

const PROJECT_ID = '0123456789abcdef0123456789abcdef';
const UA = 'wc-2/js-2.25.0/linux-20/node';

const topic = () => randomBytes(32).toString('hex');
/** A base64 envelope, as the SDK publishes (the relay never reads inside it). */
const envelope = () => randomBytes(48).toString('base64');

let clock = Date.now();
let relay: RelayStandIn;
const opened: RawRelayClient[] = [];

beforeEach(async () => {
  clock = Date.now();
  relay = await startRelayStandIn({ projectId: PROJECT_ID, now: () => clock });
});

afterEach(async () => {
  for (const client of opened.splice(0)) client.close();
  await relay.close();
});

async function connect(key: ClientKey = createClientKey()): Promise<RawRelayClient> {
  const client = await openRawClient(
    connectUrl(relay.url, { auth: makeAuth(key, relay.url), projectId: PROJECT_ID, ua: UA }),
  );
  opened.push(client);
  return client;
}

/** Waits until `check` passes, for deliveries that come a few event-loop turns after the publish. */
async function eventually(check: () => void): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      check();
      return;
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

describe('the relay stand-in, at the WebSocket upgrade', () => {
  it('accepts a client with its project id and a valid auth JWT, and writes the connection down', async () => {
    const key = createClientKey();
    await connect(key);
    expect(relay.connections).toEqual([{ clientId: key.did, projectId: PROJECT_ID, ua: UA }]);
    expect(relay.refusals).toEqual([]);
  });

  it.each([
    ['another project id', { projectId: 'fedcba9876543210fedcba9876543210' }, 403, 'unknown projectId'],
    [
      'a project id that is not 32 hex digits',
      { projectId: 'someone-elses-project' },
      400,
      'not 32 hex digits',
    ],
    ['no project id', { projectId: undefined }, 400, 'projectId is missing'],
    ['no auth', { auth: undefined }, 401, 'auth is missing'],
    ['an auth that is no JWT', { auth: 'not-a-jwt' }, 401, 'not a JWT'],
    ['no user agent', { ua: undefined }, 400, 'ua'],
  ])('refuses %s', async (_name, override, status, reason) => {
    const key = createClientKey();
    const query = { auth: makeAuth(key, relay.url), projectId: PROJECT_ID, ua: UA, ...override };
    await expect(openRawClient(connectUrl(relay.url, query))).rejects.toThrow(`HTTP ${status}`);
    expect(relay.refusals).toEqual([
      { stage: 'connect', code: status, reason: expect.stringContaining(reason) },
    ]);
    expect(relay.connections).toEqual([]);
  });

  it.each([
    [
      'signed by another key than its issuer',
      (key: ClientKey) => makeAuth(key, relay.url, {}, createClientKey()),
      'signature',
    ],
    ['for another relay (aud)', (key: ClientKey) => makeAuth(key, 'wss://relay.example.com'), 'audience'],
    [
      'that has expired',
      (key: ClientKey) => makeAuth(key, relay.url, { exp: Math.floor(clock / 1000) - 1 }),
      'expired',
    ],
    [
      'issued in the future',
      (key: ClientKey) => makeAuth(key, relay.url, { iat: Math.floor(clock / 1000) + 3600 }),
      'future',
    ],
    [
      'whose issuer is no did:key',
      (key: ClientKey) => makeAuth(key, relay.url, { iss: 'did:web:example.com' }),
      'did:key',
    ],
  ])('refuses an auth JWT %s (401)', async (_name, makeBadAuth, reason) => {
    const query = { auth: makeBadAuth(createClientKey()), projectId: PROJECT_ID, ua: UA };
    await expect(openRawClient(connectUrl(relay.url, query))).rejects.toThrow('HTTP 401');
    expect(relay.refusals).toEqual([
      { stage: 'connect', code: 401, reason: expect.stringContaining(reason) },
    ]);
  });
});

describe('the relay stand-in, on an open socket', () => {
  it('delivers a publish to the subscribers of its topic (not to its publisher) and takes their acknowledgement', async () => {
    const [dapp, wallet] = [await connect(), await connect()];
    const shared = topic();
    expect((await wallet.call('irn_subscribe', { topic: shared })).result).toMatch(/^[0-9a-f]{64}$/);
    expect((await dapp.call('irn_subscribe', { topic: shared })).result).toMatch(/^[0-9a-f]{64}$/);
    const message = envelope();
    expect(
      await dapp.call('irn_publish', { topic: shared, message, ttl: 300, tag: 1108, prompt: true }),
    ).toEqual(expect.objectContaining({ result: true }));
    await eventually(() => expect(wallet.deliveries).toHaveLength(1));
    expect(wallet.deliveries[0]?.params.data).toEqual(
      expect.objectContaining({ topic: shared, message, tag: 1108 }),
    );
    wallet.acknowledge();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(dapp.deliveries).toEqual([]);
    expect(relay.refusals).toEqual([]);
    expect(relay.requests.map((request) => request.method)).toEqual([
      'irn_subscribe',
      'irn_subscribe',
      'irn_publish',
    ]);
  });

  it('keeps a message for its ttl: a later subscriber gets it, and nobody after the ttl', async () => {
    const [dapp, wallet] = [await connect(), await connect()];
    const pairing = topic();
    await dapp.call('wc_proposeSession', { pairingTopic: pairing, sessionProposal: envelope(), ttl: 300 });
    expect(await wallet.call('irn_batchFetchMessages', { topics: [pairing] })).toEqual(
      expect.objectContaining({
        result: { messages: [expect.objectContaining({ topic: pairing, tag: 1100 })], hasMore: false },
      }),
    );
    clock += 301_000;
    expect(await wallet.call('irn_batchFetchMessages', { topics: [pairing] })).toEqual(
      expect.objectContaining({ result: { messages: [], hasMore: false } }),
    );
    await wallet.call('irn_subscribe', { topic: pairing });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(wallet.deliveries).toEqual([]);
  });

  it('subscribes the approver to the session topic and delivers the settlement and the answer', async () => {
    const [dapp, wallet] = [await connect(), await connect()];
    const [pairing, session] = [topic(), topic()];
    await dapp.call('wc_proposeSession', { pairingTopic: pairing, sessionProposal: envelope(), ttl: 300 });
    await wallet.call('irn_subscribe', { topic: pairing });
    await eventually(() => expect(wallet.deliveries).toHaveLength(1));
    wallet.acknowledge();
    const approval = {
      sessionTopic: session,
      pairingTopic: pairing,
      sessionProposalResponse: envelope(),
      sessionSettlementRequest: envelope(),
      ttl: 300,
    };
    expect((await wallet.call('wc_approveSession', approval)).result).toBe(true);
    await eventually(() =>
      expect(dapp.deliveries.map((delivery) => delivery.params.data.tag)).toEqual([1101]),
    );
    dapp.acknowledge();
    await dapp.call('irn_subscribe', { topic: session });
    await eventually(() =>
      expect(dapp.deliveries.map((delivery) => delivery.params.data.tag)).toEqual([1102]),
    );
    await dapp.call('irn_publish', {
      topic: session,
      message: envelope(),
      ttl: 300,
      tag: 1103,
      prompt: false,
    });
    await eventually(() =>
      expect(wallet.deliveries.map((delivery) => delivery.params.data.tag)).toEqual([1103]),
    );
    expect(relay.refusals).toEqual([]);
  });

  it.each([
    [
      'a topic of 63 hex digits',
      'irn_subscribe',
      { topic: topic().slice(1) },
      'topic must be 64 lower-case hex',
    ],
    [
      'an upper-case topic',
      'irn_subscribe',
      { topic: topic().toUpperCase() },
      'topic must be 64 lower-case hex',
    ],
    [
      'a topic that is not hex',
      'irn_subscribe',
      { topic: 'z'.repeat(64) },
      'topic must be 64 lower-case hex',
    ],
    ['an unknown param', 'irn_subscribe', { topic: topic(), mailbox: true }, 'unexpected param mailbox'],
    ['an empty batch', 'irn_batchSubscribe', { topics: [] }, 'topics must be 1 to 500'],
    [
      'a malformed pairing topic',
      'wc_proposeSession',
      { pairingTopic: 'abc', sessionProposal: envelope(), ttl: 300 },
      'pairingTopic',
    ],
    [
      'a proposal with another ttl',
      'wc_proposeSession',
      { pairingTopic: topic(), sessionProposal: envelope(), ttl: 3600 },
      'ttl must be 300',
    ],
    [
      'a message that is no base64 envelope',
      'irn_publish',
      { topic: topic(), message: '{"plain":"text"}', ttl: 300, tag: 1108 },
      'base64',
    ],
  ])('refuses %s with -32602 and writes it down', async (_name, method, params, reason) => {
    const client = await connect();
    const answer = await client.call(method, params);
    expect(answer.error).toEqual({ code: -32602, message: expect.stringContaining(reason) });
    expect(relay.refusals).toEqual([
      { stage: 'request', code: -32602, reason: expect.stringContaining(reason), method },
    ]);
  });

  it.each([
    ['a tag no Sign message has', 1, 300, 'tag 1 is no WalletConnect Sign message'],
    ['no tag', undefined, 300, 'tag must be an integer'],
    ['a proposal (1100) kept an hour', 1100, 3600, 'ttl 3600 for tag 1100 (wc_sessionPropose) is not 300'],
    [
      'a session request (1108) kept under five minutes',
      1108,
      299,
      'ttl 299 for tag 1108 (wc_sessionRequest) is outside 300–604800',
    ],
    [
      'a session request (1108) kept over seven days',
      1108,
      604_801,
      'ttl 604801 for tag 1108 (wc_sessionRequest) is outside 300–604800',
    ],
  ])('refuses a publish with %s', async (_name, tag, ttl, reason) => {
    const client = await connect();
    const answer = await client.call('irn_publish', { topic: topic(), message: envelope(), ttl, tag });
    expect(answer.error).toEqual({ code: -32602, message: reason });
    expect(relay.refusals).toEqual([{ stage: 'request', code: -32602, reason, method: 'irn_publish' }]);
  });

  it('accepts a session request kept from five minutes to seven days', async () => {
    const client = await connect();
    for (const ttl of [300, 3600, 604_800]) {
      expect(
        (await client.call('irn_publish', { topic: topic(), message: envelope(), ttl, tag: 1108 })).result,
      ).toBe(true);
    }
    expect(relay.refusals).toEqual([]);
  });

  it('refuses a method the relay does not answer (-32601), a message that is not JSON-RPC 2.0 (-32600) and one that is not JSON (-32700)', async () => {
    const client = await connect();
    expect((await client.call('irn_batchPublish', { messages: [] })).error?.code).toBe(-32601);
    expect(
      (await client.sendRaw(JSON.stringify({ id: 7, method: 'irn_subscribe', params: {} }))).error?.code,
    ).toBe(-32600);
    expect((await client.sendRaw('{not json')).error?.code).toBe(-32700);
    expect(relay.refusals.map((refusal) => refusal.code)).toEqual([-32601, -32600, -32700]);
  });
});
