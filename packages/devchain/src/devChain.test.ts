import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:net';
import { createPublicClient, http, parseEther } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEV_FAUCET_PRIVATE_KEY } from './devAccount.js';
import { type DevChain, DevChainPortInUseError, startDevChain } from './devChain.js';

const FAUCET_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** Chains started by a single test; closed after it even when it fails. */
const extraChains: DevChain[] = [];
afterEach(async () => {
  await Promise.all(extraChains.splice(0).map((chain) => chain.close()));
});

async function startExtraChain(options: Parameters<typeof startDevChain>[0]): Promise<DevChain> {
  const chain = await startDevChain(options);
  extraChains.push(chain);
  return chain;
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

async function postRaw(url: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text === '' ? undefined : JSON.parse(text),
  };
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}

describe('startDevChain', () => {
  let chain: DevChain;
  beforeAll(async () => {
    chain = await startDevChain({ port: 0 });
  });
  afterAll(async () => {
    await chain.close();
  });

  it('serves on a free loopback port when asked for port 0', () => {
    expect(chain.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(portOf(chain.url)).toBeGreaterThan(0);
  });

  it('reports chain id 31337 by default, through viem', async () => {
    const client = createPublicClient({ transport: http(chain.url) });
    expect(chain.chainId).toBe(31337);
    expect(await client.getChainId()).toBe(31337);
  });

  it('reports the chain id it was given', async () => {
    const custom = await startExtraChain({ port: 0, chainId: 84532 });
    const client = createPublicClient({ transport: http(custom.url) });
    expect(custom.chainId).toBe(84532);
    expect(await client.getChainId()).toBe(84532);
    expect(await client.request({ method: 'net_version' })).toBe('84532');
  });

  it("funds Hardhat's account 0 with 10,000 ETH, after deploying the test USDC and ERC-4337 (its nonces 0 to 4) in block 1", async () => {
    const client = createPublicClient({ transport: http(chain.url) });
    expect(chain.faucet).toEqual({ address: FAUCET_ADDRESS, privateKey: DEV_FAUCET_PRIVATE_KEY });
    expect(DEV_FAUCET_PRIVATE_KEY).toBe('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect(await client.getBlockNumber()).toBe(1n);
    expect(await client.getTransactionCount({ address: FAUCET_ADDRESS })).toBe(5);
    expect(await client.getBalance({ address: FAUCET_ADDRESS })).toBe(parseEther('10000'));
  });

  it('funds the faucet with the configured balance', async () => {
    const custom = await startExtraChain({ port: 0, faucetBalanceWei: 123_456_789n });
    const client = createPublicClient({ transport: http(custom.url) });
    expect(await client.getBalance({ address: custom.faucet.address })).toBe(123_456_789n);
  });

  it('has a 1 gwei base fee in the genesis block, so fee estimation works', async () => {
    const client = createPublicClient({ transport: http(chain.url) });
    const genesis = await client.getBlock({ blockNumber: 0n });
    expect(genesis.baseFeePerGas).toBe(1_000_000_000n);
    expect(genesis.gasLimit).toBe(30_000_000n);
    const fees = await client.estimateFeesPerGas();
    expect(fees.maxPriorityFeePerGas).toBeGreaterThan(0n);
    expect(fees.maxFeePerGas).toBeGreaterThanOrEqual(1_000_000_000n + fees.maxPriorityFeePerGas);
  });

  it('adds the missing params that EDR requires and answers with the request id', async () => {
    const { status, json } = await postRaw(
      chain.url,
      JSON.stringify({ jsonrpc: '2.0', id: 'abc', method: 'eth_chainId' }),
    );
    expect(status).toBe(200);
    expect(json).toEqual({ jsonrpc: '2.0', id: 'abc', result: '0x7a69' });
  });

  it('answers a batch in order, each answer with its request id, errors included', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 'two', method: 'eth_getBalance', params: [FAUCET_ADDRESS, 'latest'] },
      { jsonrpc: '2.0', id: 3, method: 'no_suchMethod', params: [] },
      { jsonrpc: '2.0', method: 'eth_blockNumber' },
      { id: 5, method: 'eth_chainId' },
    ];
    const { status, json } = await postRaw(chain.url, JSON.stringify(batch));
    expect(status).toBe(200);
    expect(json).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 'two', result: `0x${parseEther('10000').toString(16)}` },
      { jsonrpc: '2.0', id: 3, error: expect.objectContaining({ code: -32004 }) },
      // The notification (no id) runs but gets no answer; the object without jsonrpc is refused.
      { jsonrpc: '2.0', id: 5, error: { code: -32600, message: expect.stringContaining('Invalid request') } },
    ]);
  });

  it('refuses an empty batch with one invalid-request error', async () => {
    const { status, json } = await postRaw(chain.url, '[]');
    expect(status).toBe(200);
    expect(json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } });
  });

  it('answers malformed JSON with a parse error (-32700) and HTTP 400', async () => {
    const { status, json } = await postRaw(chain.url, '{"jsonrpc":"2.0","id":1,"method":');
    expect(status).toBe(400);
    expect(json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
  });

  it('answers a JSON value that is not a request with invalid request (-32600)', async () => {
    const { status, json } = await postRaw(chain.url, '42');
    expect(status).toBe(200);
    expect(json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } });
  });

  it('refuses methods other than POST with 405', async () => {
    const response = await fetch(chain.url, { method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await fetch(chain.url, { method: 'PUT', body: '{}' })).status).toBe(405);
  });

  it('refuses a body over 1 MB with 413', async () => {
    const padding = 'a'.repeat(1024 * 1024);
    const { status, json } = await postRaw(
      chain.url,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [padding] }),
    );
    expect(status).toBe(413);
    expect(json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } });
  });

  it('refuses a streamed body (no Content-Length) once it passes 1 MB, with 413', async () => {
    const { hostname, port } = new URL(chain.url);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest({ host: hostname, port, method: 'POST', path: '/' }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      expect(request.getHeader('content-length')).toBeUndefined();
      // 1.25 MB in 64 KB chunks: sent chunked, so only counting the bytes can catch it.
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 20; i++) request.write(chunk);
      request.end();
    });
    expect(status).toBe(413);
  });

  it('answers a CORS preflight from a loopback origin on any port, with that origin', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://localhost']) {
      const response = await fetch(chain.url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-methods')).toBe('POST');
      expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type');
      expect(response.headers.get('vary')).toBe('Origin');
    }
  });

  it('gives no CORS headers to other origins and refuses their POSTs', async () => {
    for (const origin of [
      'https://evil.example',
      'http://localhost.evil.example',
      'https://localhost:5173',
    ]) {
      const preflight = await fetch(chain.url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(405);
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();

      const post = await fetch(chain.url, {
        method: 'POST',
        headers: { origin, 'content-type': 'text/plain' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
      });
      expect(post.status).toBe(403);
      expect(post.headers.get('access-control-allow-origin')).toBeNull();
    }
    const client = createPublicClient({ transport: http(chain.url) });
    expect(await client.getBlockNumber()).toBe(1n);
  });

  it('allows POSTs from a loopback origin', async () => {
    const { status, headers, json } = await postRaw(
      chain.url,
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }),
      { origin: 'http://localhost:5173' },
    );
    expect(status).toBe(200);
    expect(headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(json).toEqual({ jsonrpc: '2.0', id: 7, result: '0x7a69' });
  });
});

describe('closing and ports', () => {
  it('frees the port on close(), even with a keep-alive connection open', async () => {
    const first = await startDevChain({ port: 0 });
    const port = portOf(first.url);
    // fetch keeps the connection alive after this request.
    expect(await createPublicClient({ transport: http(first.url) }).getChainId()).toBe(31337);
    await first.close();
    await expect(fetch(first.url, { method: 'POST', body: '{}' })).rejects.toThrow(TypeError);

    const second = await startExtraChain({ port, chainId: 1337 });
    expect(second.url).toBe(`http://127.0.0.1:${port}`);
    expect(await createPublicClient({ transport: http(second.url) }).getChainId()).toBe(1337);
  });

  it('can be closed twice', async () => {
    const chain = await startDevChain({ port: 0 });
    await chain.close();
    await expect(chain.close()).resolves.toBeUndefined();
  });

  it('rejects with DevChainPortInUseError naming the port and LOCAL_CHAIN_PORT when the port is taken', async () => {
    const blocker = await listenOn(0);
    try {
      const address = blocker.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      const attempt = startDevChain({ port: address.port });
      await expect(attempt).rejects.toBeInstanceOf(DevChainPortInUseError);
      await expect(attempt).rejects.toMatchObject({
        code: 'EADDRINUSE',
        port: address.port,
        host: '127.0.0.1',
        message: expect.stringMatching(new RegExp(`Port ${address.port} .*LOCAL_CHAIN_PORT`)),
      });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('refuses an invalid port or chain id before starting anything', async () => {
    await expect(startDevChain({ port: 70_000 })).rejects.toBeInstanceOf(RangeError);
    await expect(startDevChain({ port: 0, chainId: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(startDevChain({ port: 0, faucetBalanceWei: -1n })).rejects.toBeInstanceOf(RangeError);
  });
});
