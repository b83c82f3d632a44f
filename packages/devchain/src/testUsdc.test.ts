import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  getContractAddress,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_USDC_ABI, TEST_USDC_BYTECODE, TEST_USDC_COMPILER } from './contracts/testUsdcArtifact.js';
import { type DevChain, startDevChain } from './devChain.js';
import { mintTestUsdc } from './mintTestUsdc.js';
import { sendFromFaucet } from './sendFromFaucet.js';

const FAUCET_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

function newAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

describe('the test USDC artifact', () => {
  it('is what solc 0.8.37 compiles TestUSDC.sol to today (npm run compile:contracts)', async () => {
    const script = fileURLToPath(new URL('../../../scripts/compile-contracts.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--print', 'TestUSDC.sol']);
    const compiled = JSON.parse(stdout) as {
      compiler: string;
      contracts: Record<string, { abi: unknown; bytecode: string }>;
    };
    expect(compiled.compiler).toBe(TEST_USDC_COMPILER);
    expect(compiled.compiler).toMatch(/^0\.8\.37\+/);
    expect(Object.keys(compiled.contracts)).toEqual(['TestUSDC']);
    expect(compiled.contracts.TestUSDC?.bytecode).toBe(TEST_USDC_BYTECODE);
    expect(compiled.contracts.TestUSDC?.abi).toEqual(TEST_USDC_ABI);
  }, 60_000);
});

describe('the test USDC on the dev chain', () => {
  let chain: DevChain;
  let client: PublicClient;
  const read = <T>(functionName: string, args: unknown[] = []) =>
    client.readContract({
      address: chain.usdc,
      abi: TEST_USDC_ABI,
      functionName,
      args,
    } as never) as Promise<T>;

  beforeAll(async () => {
    chain = await startDevChain({ port: 0 });
    client = createPublicClient({ transport: http(chain.url), cacheTime: 0 });
  });
  afterAll(async () => {
    await chain.close();
  });

  it("is deployed by the faucet's first transaction, at the CREATE address of its nonce 0", async () => {
    const expected = getContractAddress({ from: FAUCET_ADDRESS, nonce: 0n });
    expect(expected).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3');
    expect(chain.usdc).toBe(expected);
    const block = await client.getBlock({ blockNumber: 1n, includeTransactions: true });
    // Block 1 then deploys ERC-4337 with the faucet's nonces 1 to 4.
    expect(block.transactions).toHaveLength(5);
    expect(block.transactions[0]).toMatchObject({ from: FAUCET_ADDRESS.toLowerCase(), nonce: 0, to: null });
    expect(await client.getCode({ address: chain.usdc })).toMatch(/^0x[0-9a-f]{100,}$/);
  });

  it('is named Test USDC, with symbol USDC, 6 decimals, the faucet as owner and nothing minted', async () => {
    expect(await read('name')).toBe('Test USDC');
    expect(await read('symbol')).toBe('USDC');
    expect(await read('decimals')).toBe(6);
    expect(await read('owner')).toBe(FAUCET_ADDRESS);
    expect(await read('totalSupply')).toBe(0n);
  });

  it('is at the same address on a chain with another id and a small faucet', async () => {
    const other = await startDevChain({ port: 0, chainId: 84532, faucetBalanceWei: 5n });
    try {
      expect(other.usdc).toBe(chain.usdc);
      const otherClient = createPublicClient({ transport: http(other.url) });
      expect(await otherClient.getBalance({ address: other.faucet.address })).toBe(5n);
    } finally {
      await other.close();
    }
  });

  it('mintTestUsdc mints exactly the amount to the recipient, with a Transfer from zero', async () => {
    const to = newAddress();
    const supplyBefore = await read<bigint>('totalSupply');
    const hash = await mintTestUsdc({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      usdc: chain.usdc,
      to,
      amount: 100_000_000n,
    });
    expect(await read('balanceOf', [to])).toBe(100_000_000n);
    expect(await read('totalSupply')).toBe(supplyBefore + 100_000_000n);
    const receipt = await client.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.to).toBe(chain.usdc.toLowerCase());
    expect(receipt.logs).toHaveLength(1);
  });

  it('mints and sends ETH at once from the faucet without nonce collisions', async () => {
    const recipients = Array.from({ length: 3 }, () => newAddress());
    const nonceBefore = await client.getTransactionCount({ address: FAUCET_ADDRESS });
    const hashes = await Promise.all(
      recipients.flatMap((to, i) => [
        mintTestUsdc({
          rpcUrl: chain.url,
          chainId: chain.chainId,
          usdc: chain.usdc,
          to,
          amount: BigInt(i + 1),
        }),
        sendFromFaucet({ rpcUrl: chain.url, chainId: chain.chainId, to, value: BigInt(i + 1) }),
      ]),
    );
    expect(new Set(hashes).size).toBe(6);
    for (const [i, to] of recipients.entries()) {
      expect(await read('balanceOf', [to])).toBe(BigInt(i + 1));
      expect(await client.getBalance({ address: to })).toBe(BigInt(i + 1));
    }
    expect(await client.getTransactionCount({ address: FAUCET_ADDRESS })).toBe(nonceBefore + 6);
  });

  it('lets only its owner mint: mintTestUsdc from another account throws and mints nothing', async () => {
    const key = generatePrivateKey();
    await client.request({
      method: 'hardhat_setBalance' as 'eth_chainId',
      params: [privateKeyToAccount(key).address, numberToHex(parseEther('1'))] as never,
    });
    const to = newAddress();
    const minting = mintTestUsdc({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      usdc: chain.usdc,
      to,
      amount: 1n,
      faucetPrivateKey: key,
    });
    await expect(minting).rejects.toBeInstanceOf(Error);
    expect(await read('balanceOf', [to])).toBe(0n);
  });

  it('transfers, approves and transfers from an allowance like an ERC-20', async () => {
    const key = generatePrivateKey();
    const holder = privateKeyToAccount(key);
    await client.request({
      method: 'hardhat_setBalance' as 'eth_chainId',
      params: [holder.address, numberToHex(parseEther('1'))] as never,
    });
    await mintTestUsdc({
      rpcUrl: chain.url,
      chainId: chain.chainId,
      usdc: chain.usdc,
      to: holder.address,
      amount: 10_000_000n,
    });
    const wallet = createWalletClient({ account: holder, chain: undefined, transport: http(chain.url) });
    const write = async (functionName: 'transfer' | 'approve', args: readonly [Address, bigint]) => {
      const hash: Hex = await wallet.writeContract({
        address: chain.usdc,
        abi: TEST_USDC_ABI,
        functionName,
        args,
        chain: null,
      });
      return client.getTransactionReceipt({ hash });
    };

    const friend = newAddress();
    expect((await write('transfer', [friend, 4_000_000n])).status).toBe('success');
    expect(await read('balanceOf', [holder.address])).toBe(6_000_000n);
    expect(await read('balanceOf', [friend])).toBe(4_000_000n);

    // The faucet spends 2 USDC of the holder's through an allowance.
    expect((await write('approve', [FAUCET_ADDRESS, 2_000_000n])).status).toBe('success');
    expect(await read('allowance', [holder.address, FAUCET_ADDRESS])).toBe(2_000_000n);
    const faucet = createWalletClient({
      account: privateKeyToAccount(chain.faucet.privateKey),
      transport: http(chain.url),
    });
    const spent = await faucet.writeContract({
      address: chain.usdc,
      abi: TEST_USDC_ABI,
      functionName: 'transferFrom',
      args: [holder.address, friend, 2_000_000n],
      chain: null,
    });
    expect((await client.getTransactionReceipt({ hash: spent })).status).toBe('success');
    expect(await read('balanceOf', [friend])).toBe(6_000_000n);
    expect(await read('allowance', [holder.address, FAUCET_ADDRESS])).toBe(0n);

    // More than the balance is refused with InsufficientBalance() (selector 0xf4d678b8); EDR answers the
    // call with a JSON-RPC error (-32000) that carries the revert data.
    await expect(
      client.simulateContract({
        account: holder,
        address: chain.usdc,
        abi: TEST_USDC_ABI,
        functionName: 'transfer',
        args: [friend, 4_000_001n],
      }),
    ).rejects.toThrow(/0xf4d678b8/);
    expect(await read('balanceOf', [holder.address])).toBe(4_000_000n);
  });

  it('mintTestUsdc refuses a bad address or a negative amount, and a URL on another chain', async () => {
    const base = { rpcUrl: chain.url, chainId: chain.chainId, usdc: chain.usdc };
    await expect(mintTestUsdc({ ...base, to: '0x1234', amount: 1n })).rejects.toBeInstanceOf(TypeError);
    await expect(
      mintTestUsdc({ ...base, usdc: '0x12', to: newAddress(), amount: 1n }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(mintTestUsdc({ ...base, to: newAddress(), amount: -1n })).rejects.toBeInstanceOf(RangeError);
    await expect(mintTestUsdc({ ...base, chainId: 1, to: newAddress(), amount: 1n })).rejects.toThrow(
      `${chain.url} serves chain 31337, not chain 1; nothing was sent`,
    );
  });
});
