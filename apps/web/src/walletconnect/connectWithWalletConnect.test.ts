import {
  DialError,
  MAX_REQUEST_EXPIRY_SECONDS,
  MIN_REQUEST_EXPIRY_SECONDS,
  SUPPORTED_CHAINS,
  WALLET_PROPOSAL_TTL_SECONDS,
  WALLET_SESSION_TTL_SECONDS,
} from '@dial/core';
import {
  type RelayStandIn,
  type StartTestWalletOptions,
  startRelayStandIn,
  startTestWallet,
  type TestWallet,
} from '@dial/wcrelay';
import { ENGINE_RPC_OPTS, SESSION_REQUEST_EXPIRY_BOUNDARIES } from '@walletconnect/sign-client';
import { UnsupportedProviderMethodError, UserRejectedRequestError, verifyMessage } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY } from '../keys/testing/testWallet';
import {
  type ConnectWithWalletConnectOptions,
  connectWithWalletConnect,
  type WalletConnectConnection,
} from './connectWithWalletConnect';

const PROJECT_ID = '4f1c0000d1a10000000000000000c0de';
const CHAIN_IDS = SUPPORTED_CHAINS.map((chain) => chain.id);
const METADATA = { name: 'Dial', description: 'Dial in a test', url: 'http://localhost:8080', icons: [] };
/** A whole second, so the session's expiry (in seconds) is exact in milliseconds too. */
const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
const realSetImmediate = setImmediate;

let relay: RelayStandIn;
const cleanups: (() => Promise<void>)[] = [];
const fetchCalls: string[] = [];

beforeEach(() => {
  // Nothing may reach WalletConnect's cloud (Verify, telemetry): any fetch is written down and fails.
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: unknown) => {
      fetchCalls.push(String(input));
      throw new TypeError('offline');
    }),
  );
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  expect(fetchCalls.splice(0)).toEqual([]);
});

async function startRelay(): Promise<RelayStandIn> {
  relay = await startRelayStandIn({ projectId: PROJECT_ID });
  cleanups.push(() => relay.close());
  return relay;
}

async function startWallet(options: Partial<StartTestWalletOptions> = {}): Promise<TestWallet> {
  const wallet = await startTestWallet({
    relayUrl: relay.url,
    projectId: PROJECT_ID,
    privateKey: TEST_WALLET_KEY,
    chainIds: [8453, 137],
    ...options,
  });
  cleanups.push(() => wallet.close());
  return wallet;
}

/** Connects through the stand-in, pairing `wallet` with the link as soon as it is shown. */
function connect(
  wallet: TestWallet,
  options: Partial<ConnectWithWalletConnectOptions> = {},
): { connection: Promise<WalletConnectConnection>; uri: () => string | undefined } {
  let shown: string | undefined;
  const connection = connectWithWalletConnect({
    projectId: PROJECT_ID,
    relayUrl: relay.url,
    metadata: METADATA,
    chainIds: CHAIN_IDS,
    onUri: (uri) => {
      shown = uri;
      void wallet.pair(uri);
    },
    ...options,
  });
  connection.then(
    (opened) => cleanups.push(() => opened.disconnect()),
    () => undefined,
  );
  return { connection, uri: () => shown };
}

/** Lets sockets and the SDK's promises run (real I/O) while the timers are fake. */
async function letIoRun(turns = 20): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => realSetImmediate(resolve));
}

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; !condition(); attempt++) {
    if (attempt > 2_000) throw new Error('waited too long');
    await letIoRun(1);
  }
}

/** Moves the fake clock `ms` forward in steps, letting real I/O run between them (the relay pings included). */
async function advanceClock(ms: number, stepMs = 5_000): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    await vi.advanceTimersByTimeAsync(Math.min(stepMs, ms - done));
    await letIoRun();
  }
}

/** The publishes of session requests (tag 1108) the relay stand-in received, with their ttl. */
function sessionRequestTtls(): unknown[] {
  return relay.requests
    .filter(
      (request) => request.method === 'irn_publish' && (request.params as { tag?: number }).tag === 1108,
    )
    .map((request) => (request.params as { ttl: number }).ttl);
}

describe('connectWithWalletConnect, through the relay stand-in to a WalletKit wallet', () => {
  it("connects, gets the wallet's address, and the wallet signs a sign-in message that viem verifies", async () => {
    await startRelay();
    const wallet = await startWallet();
    const { connection: connecting, uri } = connect(wallet);
    const connection = await connecting;

    expect(uri()).toMatch(/^wc:[0-9a-f]{64}@2\?/);
    expect(connection.address).toBe(TEST_WALLET_ADDRESS);
    // The first of Dial's chains (Polygon, Arbitrum One, Base, …) that the wallet (Base, Polygon) approved.
    expect(connection.chainId).toBe(137);
    expect(connection.chainIds).toEqual([137, 8453]);
    expect(wallet.proposals[0]?.params.optionalNamespaces).toEqual({
      eip155: {
        chains: CHAIN_IDS.map((id) => `eip155:${id}`),
        methods: ['personal_sign', 'eth_sendTransaction', 'wallet_sendTransaction'],
        events: ['accountsChanged', 'chainChanged'],
      },
    });

    const message = createSiweMessage({
      address: connection.address,
      chainId: connection.chainId,
      domain: 'localhost:8080',
      nonce: 'a1b2c3d4e5f6a7b8',
      uri: 'http://localhost:8080',
      version: '1',
      issuedAt: new Date(),
    });
    const signature = (await connection.request({
      method: 'personal_sign',
      params: [message, connection.address],
    })) as `0x${string}`;
    expect(await verifyMessage({ address: TEST_WALLET_ADDRESS, message, signature })).toBe(true);
    expect(wallet.requests).toEqual([
      expect.objectContaining({
        method: 'personal_sign',
        params: [message, connection.address],
        chainId: 'eip155:137',
      }),
    ]);

    expect(relay.connections.map((opened) => opened.projectId)).toEqual([PROJECT_ID, PROJECT_ID]);
    expect(relay.refusals).toEqual([]);
  });

  it('keeps the session for seven days by the clock, then refuses requests with walletconnect_session_expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    await startRelay();
    const wallet = await startWallet();
    const connection = await connect(wallet).connection;

    expect(connection.expiresAt).toBe(T0 + WALLET_SESSION_TTL_SECONDS * 1000);
    expect(wallet.sessions).toEqual([
      { topic: expect.any(String), expiry: T0 / 1000 + WALLET_SESSION_TTL_SECONDS },
    ]);

    vi.setSystemTime(connection.expiresAt - 1000);
    await connection.request({ method: 'personal_sign', params: ['0x6869', connection.address] });
    vi.setSystemTime(connection.expiresAt);
    const expired = connection.request({ method: 'personal_sign', params: ['0x6869', connection.address] });
    await expect(expired).rejects.toThrow(DialError);
    await expect(expired).rejects.toMatchObject({ code: 'walletconnect_session_expired' });
    expect(wallet.requests).toHaveLength(1);
    expect(relay.refusals).toEqual([]);
  });

  it('fails with walletconnect_proposal_expired when the wallet leaves the proposal unanswered for five minutes', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      now: T0,
    });
    await startRelay();
    const wallet = await startWallet({ onProposal: 'ignore' });
    const { connection, uri } = connect(wallet);
    let outcome: unknown;
    connection.then(
      () => {
        outcome = 'connected';
      },
      (error: unknown) => {
        outcome = error;
      },
    );
    await until(() => wallet.proposals.length === 1);

    await advanceClock(WALLET_PROPOSAL_TTL_SECONDS * 1000 - 1000);
    expect(outcome).toBeUndefined();
    await advanceClock(1000);
    expect(outcome).toBeInstanceOf(DialError);
    expect(outcome).toMatchObject({ code: 'walletconnect_proposal_expired', status: 408 });
    expect(uri()).toMatch(/^wc:/);
    expect(relay.refusals).toEqual([]);
  });

  it.each([
    ['below five minutes', 60, MIN_REQUEST_EXPIRY_SECONDS],
    ['above seven days', 30 * 86_400, MAX_REQUEST_EXPIRY_SECONDS],
    ['left out', undefined, MIN_REQUEST_EXPIRY_SECONDS],
    ['within the range', 3_600, 3_600],
  ])(
    'sends a request expiry %s as one within 5 minutes to 7 days (relay ttl and expiryTimestamp)',
    async (_name, asked, sent) => {
      vi.useFakeTimers({ toFake: ['Date'], now: T0 });
      await startRelay();
      const wallet = await startWallet();
      const connection = await connect(wallet).connection;

      await connection.request({
        method: 'personal_sign',
        params: ['0x6869', connection.address],
        ...(asked === undefined ? {} : { expirySeconds: asked }),
      });
      expect(sessionRequestTtls()).toEqual([sent]);
      expect(wallet.requests[0]?.expiryTimestamp).toBe(T0 / 1000 + sent);
      expect(relay.refusals).toEqual([]);
    },
  );

  it('fails with walletconnect_request_expired when the wallet leaves a request unanswered past its expiry', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      now: T0,
    });
    await startRelay();
    const wallet = await startWallet({ onRequest: 'ignore' });
    const { connection: connecting } = connect(wallet);
    await until(() => wallet.sessions.length === 1);
    await letIoRun(200);
    const connection = await connecting;
    let outcome: unknown;
    connection.request({ method: 'personal_sign', params: ['0x6869', connection.address] }).then(
      () => {
        outcome = 'answered';
      },
      (error: unknown) => {
        outcome = error;
      },
    );
    await until(() => wallet.requests.length === 1);
    await advanceClock(MIN_REQUEST_EXPIRY_SECONDS * 1000);
    expect(outcome).toMatchObject({ code: 'walletconnect_request_expired', status: 408 });
    expect(relay.refusals).toEqual([]);
  });

  it('answers a refused proposal with user_rejected, a refused request with 4001 and an unapproved method with 4200', async () => {
    await startRelay();
    const refusing = await startWallet({ onProposal: 'reject' });
    await expect(connect(refusing).connection).rejects.toMatchObject({ code: 'user_rejected' });

    const wallet = await startWallet({ onRequest: 'reject' });
    const connection = await connect(wallet).connection;
    await expect(
      connection.request({ method: 'personal_sign', params: ['0x6869', connection.address] }),
    ).rejects.toBeInstanceOf(UserRejectedRequestError);
    await expect(connection.request({ method: 'eth_signTypedData_v4', params: [] })).rejects.toBeInstanceOf(
      UnsupportedProviderMethodError,
    );
    expect(relay.refusals).toEqual([]);
  });

  it('fails with walletconnect_unavailable when the relay refuses the project id, and the relay wrote it down', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
      now: T0,
    });
    await startRelay();
    const wallet = await startWallet();
    const { connection, uri } = connect(wallet, { projectId: 'ffffffffffffffffffffffffffffffff' });
    let outcome: unknown;
    connection.catch((error: unknown) => {
      outcome = error;
    });
    await until(() => relay.refusals.length > 0);
    await advanceClock(15_000, 500);
    expect(outcome).toMatchObject({ code: 'walletconnect_unavailable', status: 503 });
    expect(uri()).toBeUndefined();
    expect(relay.refusals[0]).toEqual({
      stage: 'connect',
      code: 403,
      reason: 'unknown projectId ffffffffffffffffffffffffffffffff',
    });
  });

  it('stops waiting when aborted, with the signal’s reason', async () => {
    await startRelay();
    const wallet = await startWallet({ onProposal: 'ignore' });
    const controller = new AbortController();
    const { connection } = connect(wallet, { signal: controller.signal });
    await until(() => wallet.proposals.length === 1);
    controller.abort(new DOMException('The person cancelled.', 'AbortError'));
    await expect(connection).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe("core's wallet-connection limits", () => {
  it("agree with WalletConnect's: a five-minute proposal, a request expiry from five minutes to seven days", () => {
    expect(ENGINE_RPC_OPTS.wc_sessionPropose.req.ttl).toBe(WALLET_PROPOSAL_TTL_SECONDS);
    expect(SESSION_REQUEST_EXPIRY_BOUNDARIES).toEqual({
      min: MIN_REQUEST_EXPIRY_SECONDS,
      max: MAX_REQUEST_EXPIRY_SECONDS,
    });
  });
});
