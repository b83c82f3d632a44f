import { createPublicClient, type Hex, http, type PublicClient, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevChain, startDevChain } from './devChain.js';
import { sendFromFaucet } from './sendFromFaucet.js';

function newAddress() {
  return privateKeyToAccount(generatePrivateKey()).address;
}

describe('sendFromFaucet', () => {
  let chain: DevChain;
  let client: PublicClient;
  beforeAll(async () => {
    chain = await startDevChain({ port: 0 });
    client = createPublicClient({ transport: http(chain.url), cacheTime: 0 });
  });
  afterAll(async () => {
    await chain.close();
  });

  it('moves exactly the value to the recipient in a mined transaction', async () => {
    const to = newAddress();
    const value = parseEther('1.2345');
    const faucetBefore = await client.getBalance({ address: chain.faucet.address });
    const blockBefore = await client.getBlockNumber();

    const hash = await sendFromFaucet({ rpcUrl: chain.url, chainId: chain.chainId, to, value });

    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await client.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from).toBe(chain.faucet.address.toLowerCase());
    expect(receipt.to).toBe(to.toLowerCase());
    // Automine: the transfer is alone in the next block.
    expect(receipt.blockNumber).toBe(blockBefore + 1n);
    expect(await client.getBlockNumber()).toBe(blockBefore + 1n);
    expect(await client.getBalance({ address: to })).toBe(value);
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await client.getBalance({ address: chain.faucet.address })).toBe(faucetBefore - value - fee);
  });

  it('sends five transfers at once without nonce collisions', async () => {
    const recipients = Array.from({ length: 5 }, (_, i) => ({
      to: newAddress(),
      value: parseEther('0.1') * BigInt(i + 1),
    }));
    const nonceBefore = await client.getTransactionCount({ address: chain.faucet.address });

    const hashes = await Promise.all(
      recipients.map(({ to, value }) =>
        sendFromFaucet({ rpcUrl: chain.url, chainId: chain.chainId, to, value }),
      ),
    );

    expect(new Set(hashes).size).toBe(5);
    for (const [i, { to, value }] of recipients.entries()) {
      expect(await client.getBalance({ address: to })).toBe(value);
      const transaction = await client.getTransaction({ hash: hashes[i] as Hex });
      expect(transaction.to).toBe(to.toLowerCase());
      expect(transaction.value).toBe(value);
    }
    const nonces = await Promise.all(
      hashes.map(async (hash) => (await client.getTransaction({ hash })).nonce),
    );
    expect(nonces.toSorted((a, b) => a - b)).toEqual([0, 1, 2, 3, 4].map((i) => nonceBefore + i));
    expect(await client.getTransactionCount({ address: chain.faucet.address })).toBe(nonceBefore + 5);
  });

  it('sends from the account of faucetPrivateKey when given', async () => {
    const key = generatePrivateKey();
    const from = privateKeyToAccount(key).address;
    await client.request({
      method: 'hardhat_setBalance' as 'eth_chainId',
      params: [from, `0x${parseEther('1').toString(16)}`] as never,
    });
    const to = newAddress();

    const hash = await sendFromFaucet({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      to,
      value: 5n,
      faucetPrivateKey: key,
    });

    expect((await client.getTransaction({ hash })).from).toBe(from.toLowerCase());
    expect(await client.getBalance({ address: to })).toBe(5n);
  });

  it('throws when the endpoint is on another chain, and sends nothing', async () => {
    const to = newAddress();
    const nonceBefore = await client.getTransactionCount({ address: chain.faucet.address });
    const sending = sendFromFaucet({ rpcUrl: chain.url, chainId: 1, to, value: 1n });
    await expect(sending).rejects.toBeInstanceOf(Error);
    await expect(sending).rejects.toThrow(`${chain.url} serves chain 31337, not chain 1; nothing was sent`);
    expect(await client.getTransactionCount({ address: chain.faucet.address })).toBe(nonceBefore);
    expect(await client.getBalance({ address: to })).toBe(0n);
  });

  it('refuses an invalid recipient or a negative value', async () => {
    await expect(
      sendFromFaucet({ rpcUrl: chain.url, chainId: chain.chainId, to: '0x1234', value: 1n }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(
      sendFromFaucet({ rpcUrl: chain.url, chainId: chain.chainId, to: newAddress(), value: -1n }),
    ).rejects.toBeInstanceOf(RangeError);
  });
});

describe('sendFromFaucet on a transfer that reverts', () => {
  it('throws once the transfer is mined with a failed receipt', async () => {
    const chain = await startDevChain({ port: 0 });
    try {
      const client = createPublicClient({ transport: http(chain.url) });
      // To make a transfer that passes gas estimation but reverts when mined: stop automining, let the
      // transfer (estimated against a plain account) reach the mempool, then give the recipient code that
      // always reverts (PUSH0 PUSH0 REVERT) and mine.
      const rpc = (method: string, params: unknown[]) =>
        client.request({ method: method as 'eth_chainId', params: params as never });
      await rpc('evm_setAutomine', [false]);
      const to = newAddress();

      const sending = sendFromFaucet({ rpcUrl: chain.url, chainId: chain.chainId, to, value: 1_000n });
      const outcome = sending.then(
        () => 'resolved',
        (error: unknown) => error,
      );
      await expect
        .poll(() => client.getTransactionCount({ address: chain.faucet.address, blockTag: 'pending' }), {
          timeout: 5_000,
          interval: 20,
        })
        // The faucet's nonces 0 to 4 deployed the test USDC and ERC-4337 at start.
        .toBe(6);
      await rpc('hardhat_setCode', [to, '0x5f5ffd']);
      await rpc('evm_mine', []);

      const error = await outcome;
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(
        /^The faucet transfer 0x[0-9a-f]{64} to 0x[0-9a-fA-F]{40} reverted in block 2$/,
      );
      expect(await client.getBalance({ address: to })).toBe(0n);
    } finally {
      await chain.close();
    }
  });
});
