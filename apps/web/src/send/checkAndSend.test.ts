import { createLocalChain } from '@dial/core';
import { type LocalChain, startLocalChain } from '@dial/devchain/localChain';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChainClient } from '../chain/createChainClient';
import { withDialServer } from '../keys/testing/dialServer';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY } from '../keys/testing/testWallet';
import { estimateNetworkFee } from './networkFee';

/**
 * "Confirm and send" with the embedded wallet, up to the hash, against the real parts: the real server
 * (this device's unlock, through the stubbed fetch), the key rebuilt from the device in the in-memory stand-in
 * of the IndexedDB store, and a real local chain behind an RPC URL whose requests are recorded, and which
 * refuses eth_fillTransaction as many nodes do.
 */
const memory = await vi.hoisted(async () =>
  (await import('../keys/testing/memoryDeviceStore')).memoryDeviceStore(),
);
vi.mock('../keys/deviceStore', () => ({ deviceStore: memory.store }));
vi.mock('../keys/legacyShares', () => ({ legacyShares: memory.legacyStore }));

const { deviceStore } = await import('../keys/deviceStore');
const { checkAndSend } = await import('./sendTransfer');

const RPC_URL = 'http://chain.invalid/rpc';
const chain = createLocalChain(RPC_URL);
const dialServer = withDialServer();
let local: LocalChain;

/** Each request of the page, API or RPC, as it started and ended, in one sequence. */
type Journal = Array<{ event: 'start' | 'end'; name: string; id: number }>;
let journal: Journal;

beforeAll(async () => {
  local = await startLocalChain(chain.id);
});

beforeEach(async () => {
  memory.clear();
  // The wallet is the local chain's funded account: this browser is its device.
  const server = dialServer();
  const { device } = await server.register(TEST_WALLET_KEY);
  await deviceStore.save(server.userId, device);

  journal = [];
  let nextId = 0;
  const toServer = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const body = typeof init?.body === 'string' ? init.body : '';
    const name =
      url === RPC_URL ? (JSON.parse(body) as { method: string }).method : `${init?.method ?? 'GET'} ${url}`;
    const id = nextId++;
    journal.push({ event: 'start', name, id });
    try {
      return url === RPC_URL ? await answerRpc(body) : await toServer(input, init);
    } finally {
      // Answered on a later turn of the event loop, as over a network: requests started together are seen
      // in flight together.
      await new Promise((resolve) => setImmediate(resolve));
      journal.push({ event: 'end', name, id });
    }
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function answerRpc(body: string): Promise<Response> {
  const { id, method, params } = JSON.parse(body) as { id: number; method: string; params?: unknown };
  if (method === 'eth_fillTransaction') {
    return Response.json({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
  }
  try {
    const result = await local.request({ method, params } as Parameters<LocalChain['request']>[0]);
    return Response.json({ jsonrpc: '2.0', id, result });
  } catch (error) {
    const { code = -32603, message = String(error) } = error as { code?: number; message?: string };
    return Response.json({ jsonrpc: '2.0', id, error: { code, message } });
  }
}

/**
 * The rounds of requests from the first one to eth_sendRawTransaction: a request that started after another
 * one had ended is a round after it; requests in flight together are one round.
 */
function rounds(entries: Journal): Array<string[]> {
  const round = new Map<number, number>();
  const byRound: Array<string[]> = [];
  for (const [index, entry] of entries.entries()) {
    if (entry.event !== 'start') continue;
    const ended = entries
      .slice(0, index)
      .filter((other) => other.event === 'end')
      .map((other) => round.get(other.id) ?? 0);
    const at = Math.max(0, ...ended) + 1;
    round.set(entry.id, at);
    const names = byRound[at - 1] ?? [];
    names.push(entry.name);
    byRound[at - 1] = names;
    if (entry.name === 'eth_sendRawTransaction') break;
  }
  return byRound.map((names) => [...names].sort());
}

async function transactionOf(hash: string) {
  return (await local.request({ method: 'eth_getTransactionByHash', params: [hash] })) as {
    nonce: string;
    type: string;
    gas: string;
    maxFeePerGas: string;
    maxPriorityFeePerGas: string;
  };
}

describe('checkAndSend with the embedded wallet', () => {
  it("asks for the balance, the nonce and this device's auth share side by side, then sends: no fill, nothing else", async () => {
    const client = createChainClient(chain);
    const to = privateKeyToAddress(generatePrivateKey());
    const call = { to, value: 12_345n };
    const estimate = await estimateNetworkFee(client, TEST_WALLET_ADDRESS, call);
    const nonce = Number(
      await local.request({ method: 'eth_getTransactionCount', params: [TEST_WALLET_ADDRESS, 'pending'] }),
    );
    const phases: string[] = [];
    journal.length = 0;

    const hash = await checkAndSend(
      {
        userId: dialServer().userId,
        signer: 'embedded',
        address: TEST_WALLET_ADDRESS,
        chains: [chain],
        client,
        usdcAddress: undefined,
      },
      { chain, asset: 'native', amount: call.value, call, estimate },
      () => phases.push('signing'),
      () => phases.push('short'),
    );

    // The device's unlock waits only for its entry to be decrypted here, never for the chain's answers (nor
    // they for it): the chain may answer before it starts, so it may come out as a round of its own.
    const unlock = /^POST \/api\/wallet\/devices\/[0-9a-f-]{36}\/unlock$/;
    const before = rounds(journal).slice(0, -1).flat().sort();
    expect(before).toEqual(
      ['eth_getBalance', 'eth_getTransactionCount', expect.stringMatching(unlock)].sort(),
    );
    expect(rounds(journal).at(-1)).toEqual(['eth_sendRawTransaction']);
    const starts = journal.filter((entry) => entry.event === 'start').map((entry) => entry.name);
    expect(starts.slice(0, 2).sort()).toEqual(['eth_getBalance', 'eth_getTransactionCount']);
    expect(journal.map((entry) => entry.name)).not.toContain('eth_fillTransaction');
    expect(phases).toEqual(['signing']);
    // Signed with the nonce read beside the balance, and exactly the gas and fee caps the check was made on.
    const sent = await transactionOf(hash);
    expect(Number(sent.nonce)).toBe(nonce);
    expect(sent.type).toBe('0x2');
    expect(BigInt(sent.gas)).toBe(estimate.gas);
    expect(BigInt(sent.maxFeePerGas)).toBe(estimate.maxFeePerGas);
    expect(BigInt(sent.maxPriorityFeePerGas)).toBe(estimate.maxPriorityFeePerGas);
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
  });

  it('signs nothing when the balance does not cover the send, though the auth share was asked for', async () => {
    const client = createChainClient(chain);
    const to = privateKeyToAddress(generatePrivateKey());
    const call = { to, value: 10n ** 30n };
    const estimate = {
      gas: 21_000n,
      maxFeePerGas: 10n ** 9n,
      maxPriorityFeePerGas: 1n,
      fee: 21_000n * 10n ** 9n,
    };
    const phases: string[] = [];
    journal.length = 0;

    await expect(
      checkAndSend(
        {
          userId: dialServer().userId,
          signer: 'embedded',
          address: TEST_WALLET_ADDRESS,
          chains: [chain],
          client,
          usdcAddress: undefined,
        },
        { chain, asset: 'native', amount: call.value, call, estimate },
        () => phases.push('signing'),
        () => phases.push('short'),
      ),
    ).rejects.toMatchObject({ code: 'insufficient_balance' });

    expect(phases).toEqual(['short']);
    expect(journal.map((entry) => entry.name)).not.toContain('eth_sendRawTransaction');
  });

  it('still refuses to sign when this browser is no device of the wallet', async () => {
    memory.clear();
    const client = createChainClient(chain);
    const call = { to: privateKeyToAddress(generatePrivateKey()), value: 1n };
    const estimate = await estimateNetworkFee(client, TEST_WALLET_ADDRESS, call);
    journal.length = 0;

    await expect(
      checkAndSend(
        {
          userId: dialServer().userId,
          signer: 'embedded',
          address: TEST_WALLET_ADDRESS,
          chains: [chain],
          client,
          usdcAddress: undefined,
        },
        { chain, asset: 'native', amount: call.value, call, estimate },
        () => {},
        () => {},
      ),
    ).rejects.toMatchObject({ code: 'device_share_missing' });
    expect(journal.map((entry) => entry.name)).not.toContain('eth_sendRawTransaction');
  });

  it('paid by the wallet, a send of the whole balance is refused before signing with what the fee needs; paid by the operator, it passes the check and takes the user operation path, never a plain transaction', async () => {
    const client = createChainClient(chain);
    const balance = BigInt(
      (await local.request({ method: 'eth_getBalance', params: [TEST_WALLET_ADDRESS, 'pending'] })) as string,
    );
    const call = { to: privateKeyToAddress(generatePrivateKey()), value: balance };
    const estimate = {
      gas: 21_000n,
      maxFeePerGas: 10n ** 9n,
      maxPriorityFeePerGas: 1n,
      fee: 21_000n * 10n ** 9n,
    };
    const sender: Parameters<typeof checkAndSend>[0] = {
      userId: dialServer().userId,
      signer: 'embedded',
      address: TEST_WALLET_ADDRESS,
      chains: [chain],
      client,
      usdcAddress: undefined,
    };
    const plan = { chain, asset: 'native' as const, amount: balance, call, estimate };
    const phases: string[] = [];

    await expect(
      checkAndSend(
        sender,
        { ...plan, payment: { by: 'wallet' } },
        () => phases.push('signing'),
        () => phases.push('short'),
      ),
    ).rejects.toMatchObject({
      code: 'insufficient_balance',
      message: expect.stringMatching(
        /^Sending [\d,.]+ ETH also needs up to 0\.000021 ETH for the network fee\. Send at most [\d,.]+ ETH, or add ETH\.$/,
      ),
    });
    expect(phases).toEqual(['short']);

    // Paid by the operator, nothing is short (no fee to cover): it signs as the smart account, reading the
    // wallet's code (the delegation) and the EntryPoint's nonce, never as a plain transaction. (This
    // in-process chain has no EntryPoint: the user operation stops there; sponsoredSend.test.ts and the
    // browser test send it through the real bundler.)
    vi.stubGlobal('location', { origin: 'http://localhost:8080' });
    phases.length = 0;
    journal.length = 0;
    await expect(
      checkAndSend(
        sender,
        { ...plan, payment: { by: 'operator', operatorName: 'Dial Test' } },
        () => phases.push('signing'),
        () => phases.push('short'),
      ),
    ).rejects.toBeInstanceOf(Error);
    expect(phases).toEqual(['signing']);
    const asked = journal.filter((entry) => entry.event === 'start').map((entry) => entry.name);
    expect(asked).toContain('eth_getCode');
    expect(asked).toContain('eth_call');
    expect(asked).not.toContain('eth_sendRawTransaction');
  });
});
