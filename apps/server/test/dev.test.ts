import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DevChain, startDevChain, TEST_USDC_ABI } from '@dial/devchain';
import { createPublicClient, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkMethod } from '../src/auth/linkMethod.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, ORIGIN, PHONE } from './testApp.js';
import { registerWallet, testWallet } from './walletProof.js';

const ADDRESS = testWallet(1).address;
/** Where startDevChain deploys the test USDC: the CREATE address of the faucet's nonce 0. */
const LOCAL_USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const SHARE = Buffer.alloc(33, 9).toString('base64');

describe.each(DIALECTS)('the dev outbox on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  /** An app with its real transports (the dev outbox on both channels); `test` keeps the console quiet. */
  const outboxApp = () =>
    createTestApp(db(), { config: { environment: 'test' }, deps: { transports: undefined } });

  it('lists the sent code in /dev/outbox.json', async () => {
    const t = await outboxApp();
    const start = await t.post('/api/auth/otp/start', { channel: 'email', to: 'ada@example.com' });
    expect(start.statusCode).toBe(200);
    const response = await t.get('/dev/outbox.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { messages } = response.json();
    expect(messages).toEqual([
      {
        id: expect.any(String),
        channel: 'email',
        to: 'ada@example.com',
        subject: expect.stringContaining(messages[0].code),
        text: expect.stringContaining(messages[0].code),
        code: expect.stringMatching(/^\d{6}$/),
        createdAt: '2030-01-01T12:00:00.000Z',
      },
    ]);
    // The listed code signs in.
    const verify = await t.post('/api/auth/otp/verify', {
      channel: 'email',
      to: 'ada@example.com',
      code: messages[0].code,
    });
    expect(verify.statusCode).toBe(200);
  });

  it('lists messages newest first, at most 100', async () => {
    const t = await outboxApp();
    for (let i = 0; i < 3; i++) {
      await t.post('/api/auth/otp/start', { channel: 'sms', to: PHONE }, { ip: `192.0.2.${i}` });
      t.clock.advance(31_000);
    }
    const { messages } = (await t.get('/dev/outbox.json')).json();
    expect(messages).toHaveLength(3);
    const times = messages.map((message: { createdAt: string }) => message.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    for (let i = 0; i < 110; i++) {
      await db()
        .insertInto('outbox_messages')
        .values({
          id: `filler-${i}`,
          channel: 'email',
          recipient: `filler${i}@example.com`,
          subject: 's',
          body: 'b',
          code: null,
          created_at: new Date(Date.UTC(2029, 0, 1, 0, 0, i)).toISOString(),
        })
        .execute();
    }
    const full = (await t.get('/dev/outbox.json')).json().messages;
    expect(full).toHaveLength(100);
    expect(full[0].to).toBe(PHONE);
    expect(full[99]).not.toHaveProperty('code');
  });

  it('shows the messages as an HTML page', async () => {
    const t = await outboxApp();
    await t.post('/api/auth/otp/start', { channel: 'email', to: 'ada@example.com' });
    const code = (await t.get('/dev/outbox.json')).json().messages[0].code;
    const page = await t.get('/dev/outbox');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(code);
    expect(page.body).toContain('ada@example.com');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('is not there in production: /dev/* answers 404 not_found', async () => {
    const t = await createTestApp(db(), { config: { environment: 'production' } });
    for (const url of ['/dev/outbox', '/dev/outbox.json']) {
      const response = await t.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });
});

describe('GET /api/config', () => {
  const db = useTestDatabase('sqlite');

  it('offers the local chain through /api/dev/chain, its test USDC and the faucet when the local chain is on', async () => {
    const t = await createTestApp(db(), {
      config: { localChain: { start: false, port: 8545, rpcUrl: 'http://127.0.0.1:8545', usdc: LOCAL_USDC } },
    });
    expect((await t.get('/api/config')).json()).toEqual({
      environment: 'development',
      localChain: { id: 31337, name: 'Local', rpcUrl: '/api/dev/chain', usdc: LOCAL_USDC },
      faucet: true,
      channels: ['sms', 'email'],
      rpcUrls: {},
      onramp: null,
      walletConnect: null,
    });
  });

  it('gives usdc null for a local chain it did not start (LOCAL_CHAIN_URL)', async () => {
    const t = await createTestApp(db(), {
      config: { localChain: { start: false, port: 8545, rpcUrl: 'http://127.0.0.1:8545' } },
    });
    expect((await t.get('/api/config')).json().localChain).toEqual({
      id: 31337,
      name: 'Local',
      rpcUrl: '/api/dev/chain',
      usdc: null,
    });
  });

  it("gives WalletConnect's project id and relay URL when both are configured", async () => {
    const walletConnect = {
      projectId: '0123456789abcdef0123456789abcdef',
      relayUrl: 'wss://relay.example.com',
    };
    const t = await createTestApp(db(), { config: { walletConnect } });
    expect((await t.get('/api/config')).json().walletConnect).toEqual(walletConnect);
  });

  it('offers neither without the local chain', async () => {
    const t = await createTestApp(db());
    expect((await t.get('/api/config')).json()).toMatchObject({ localChain: null, faucet: false });
  });

  it('in production: no local chain, and only the channels with a provider', async () => {
    const t = await createTestApp(db(), {
      config: {
        environment: 'production',
        localChain: { start: false, port: 8545, rpcUrl: 'http://127.0.0.1:8545' },
        mail: { smtpUrl: 'smtp://127.0.0.1:2525', from: 'Dial <no-reply@example.com>' },
      },
      deps: { transports: undefined },
    });
    expect((await t.get('/api/config')).json()).toEqual({
      environment: 'production',
      localChain: null,
      faucet: false,
      channels: ['email'],
      rpcUrls: {},
      onramp: null,
      walletConnect: null,
    });
  });

  it('gives the RPC URL overrides by chain id, and only those', async () => {
    const t = await createTestApp(db(), {
      config: {
        rpcUrls: { 137: 'https://polygon.example.com/v1/KEY', 8453: 'https://base.example.com/rpc?key=abc' },
      },
    });
    const response = await t.get('/api/config');
    expect(response.statusCode).toBe(200);
    expect(response.json().rpcUrls).toEqual({
      '137': 'https://polygon.example.com/v1/KEY',
      '8453': 'https://base.example.com/rpc?key=abc',
    });
  });
});

describe('the local chain routes', () => {
  const db = useTestDatabase('sqlite');
  let chain: DevChain;
  beforeAll(async () => {
    chain = await startDevChain({ port: 0 });
  });
  afterAll(async () => {
    await chain.close();
  });

  const chainApp = (rpcUrl = chain.url, usdc: `0x${string}` | null = chain.usdc) =>
    createTestApp(db(), { config: { localChain: { start: false, port: 0, rpcUrl, usdc } } });

  it('POST /api/dev/faucet sends 1 ETH to the signed-in user’s wallet', async () => {
    const t = await chainApp();
    const { token } = await t.signIn('sms', PHONE);
    await registerWallet(t, token, { authShare: SHARE });
    const client = createPublicClient({ transport: http(chain.url) });
    const before = await client.getBalance({ address: ADDRESS });
    const response = await t.post('/api/dev/faucet', {}, { token });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      asset: 'native',
      value: '1000000000000000000',
    });
    expect((await client.getBalance({ address: ADDRESS })) - before).toBe(parseEther('1'));
    const receipt = await client.getTransactionReceipt({ hash: body.txHash });
    expect(receipt.to?.toLowerCase()).toBe(ADDRESS.toLowerCase());
  });

  it('POST /api/dev/faucet funds the wallet an account signed in with when it has no embedded wallet', async () => {
    const t = await chainApp();
    const { token, response } = await t.signIn('sms', PHONE);
    const own = testWallet(5).address;
    await linkMethod(db(), response.json().user.id, { kind: 'wallet', value: own }, 5, t.clock.now(), true);
    const client = createPublicClient({ transport: http(chain.url) });
    const before = await client.getBalance({ address: own });
    const answer = await t.post('/api/dev/faucet', {}, { token });
    expect(answer.statusCode).toBe(200);
    expect((await client.getBalance({ address: own })) - before).toBe(parseEther('1'));
  });

  it('POST /api/dev/faucet sends 1 ETH with asset native, and with no body at all', async () => {
    const t = await chainApp();
    const { token } = await t.signIn('sms', PHONE);
    await registerWallet(t, token, { authShare: SHARE });
    const client = createPublicClient({ transport: http(chain.url) });
    const before = await client.getBalance({ address: ADDRESS });
    const response = await t.post('/api/dev/faucet', { asset: 'native' }, { token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ asset: 'native', value: '1000000000000000000' });
    const bare = await t.post('/api/dev/faucet', undefined, { token });
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toMatchObject({ asset: 'native', value: '1000000000000000000' });
    expect((await client.getBalance({ address: ADDRESS })) - before).toBe(parseEther('2'));
  });

  it('POST /api/dev/faucet with asset usdc mints exactly 100 test USDC to the wallet', async () => {
    const t = await chainApp();
    const { token } = await t.signIn('sms', PHONE);
    await registerWallet(t, token, { authShare: SHARE });
    const client = createPublicClient({ transport: http(chain.url) });
    const balanceOf = () =>
      client.readContract({
        address: chain.usdc,
        abi: TEST_USDC_ABI,
        functionName: 'balanceOf',
        args: [ADDRESS],
      });
    const before = await balanceOf();
    const ethBefore = await client.getBalance({ address: ADDRESS });

    const response = await t.post('/api/dev/faucet', { asset: 'usdc' }, { token });

    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      asset: 'usdc',
      value: '100000000',
    });
    expect((await balanceOf()) - before).toBe(100_000_000n);
    expect(await client.getBalance({ address: ADDRESS })).toBe(ethBefore);
    const receipt = await client.getTransactionReceipt({ hash: body.txHash });
    expect(receipt.status).toBe('success');
    expect(receipt.to).toBe(chain.usdc.toLowerCase());
  });

  it('POST /api/dev/faucet refuses an unknown asset with 400 invalid_data, and sends nothing', async () => {
    const t = await chainApp();
    const { token } = await t.signIn('sms', PHONE);
    await registerWallet(t, token, { authShare: SHARE });
    const client = createPublicClient({ transport: http(chain.url) });
    const blockBefore = await client.getBlockNumber();
    for (const body of [{ asset: 'dai' }, { asset: 'USDC' }, { asset: 1 }, { asset: null }]) {
      const response = await t.post('/api/dev/faucet', body, { token });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_data');
    }
    expect(await client.getBlockNumber()).toBe(blockBefore);
  });

  it('POST /api/dev/faucet with asset usdc answers 404 not_found when the local chain has no test USDC', async () => {
    const t = await chainApp(chain.url, null);
    const { token } = await t.signIn('sms', PHONE);
    await registerWallet(t, token, { authShare: SHARE });
    const response = await t.post('/api/dev/faucet', { asset: 'usdc' }, { token });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });

  it('POST /api/dev/faucet needs a session (401) and a wallet (404)', async () => {
    const t = await chainApp();
    expect((await t.post('/api/dev/faucet', {})).statusCode).toBe(401);
    const { token } = await t.signIn('sms', PHONE);
    const response = await t.post('/api/dev/faucet', {}, { token });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('wallet_not_found');
  });

  it('POST /api/dev/faucet answers 503 chain_unavailable when the chain is down', async () => {
    const closed = await closedPortUrl();
    const t = await chainApp(closed);
    const { token } = await t.signIn('sms', PHONE);
    await registerWallet(t, token, { authShare: SHARE });
    const response = await t.post('/api/dev/faucet', {}, { token });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('chain_unavailable');
  });

  it('POST /api/dev/chain passes JSON-RPC through to the chain, single and batched', async () => {
    const t = await chainApp();
    const { token } = await t.signIn('sms', PHONE);
    const single = await t.post(
      '/api/dev/chain',
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { token },
    );
    expect(single.statusCode).toBe(200);
    expect(single.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    expect(single.headers['cache-control']).toBe('no-store');
    const batch = await t.post(
      '/api/dev/chain',
      [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: [chain.faucet.address, 'latest'] },
      ],
      { token },
    );
    expect(batch.statusCode).toBe(200);
    const answers = batch.json();
    expect(answers).toHaveLength(2);
    expect(BigInt(answers.find((answer: { id: number }) => answer.id === 2).result)).toBeGreaterThan(0n);
  });

  it('POST /api/dev/chain answers 401 unauthorized without a session, or with an ended one', async () => {
    const t = await chainApp();
    const { token } = await t.signIn('sms', PHONE);
    expect((await t.post('/api/auth/logout', {}, { token })).statusCode).toBe(200);
    for (const options of [{}, { token }, { token: 'not-a-session' }]) {
      for (const body of [
        { jsonrpc: '2.0', id: 1, method: 'eth_accounts' },
        [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }],
      ]) {
        const response = await t.post('/api/dev/chain', body, options);
        expect(response.statusCode).toBe(401);
        expect(response.json().error.code).toBe('unauthorized');
        expect(response.body).not.toContain('jsonrpc');
      }
    }
  });

  it('POST /api/dev/chain refuses what is not JSON-RPC with 400 invalid_data', async () => {
    const t = await chainApp();
    const { token } = await t.signIn('sms', PHONE);
    for (const body of [{ method: 'eth_chainId' }, { jsonrpc: '2.0', method: 5 }, []]) {
      const response = await t.post('/api/dev/chain', body, { token });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_data');
    }
  });

  it('POST /api/dev/chain answers 503 chain_unavailable when the chain is down', async () => {
    const t = await chainApp(await closedPortUrl());
    const { token } = await t.signIn('sms', PHONE);
    const response = await t.post(
      '/api/dev/chain',
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { token },
    );
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('chain_unavailable');
  });

  it('POST /api/dev/chain refuses other origins like every POST', async () => {
    const t = await chainApp();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/dev/chain',
      headers: { origin: 'https://evil.example' },
      payload: { jsonrpc: '2.0', id: 1, method: 'eth_accounts' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('the local chain routes answer 404 without the local chain, and in production', async () => {
    for (const config of [{}, { environment: 'production' as const }]) {
      const t = await createTestApp(db(), { config });
      for (const url of ['/api/dev/faucet', '/api/dev/chain']) {
        const response = await t.app.inject({
          method: 'POST',
          url,
          headers: { origin: ORIGIN },
          payload: {},
        });
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
    }
  });
});

/** The URL of a loopback port nothing listens on. */
async function closedPortUrl(): Promise<string> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
