import {
  createPublicClient,
  createWalletClient,
  custom,
  encodeFunctionData,
  parseEther,
  toFunctionSelector,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_USDC_ABI, TEST_USDC_BYTECODE } from './contracts/testUsdcArtifact.js';
import { DEV_FAUCET_ADDRESS, DEV_FAUCET_BALANCE_WEI, DEV_FAUCET_PRIVATE_KEY } from './devAccount.js';
import { type LocalChain, LocalChainRpcError, startLocalChain } from './localChain.js';

describe('the dev account', () => {
  it("is Hardhat's account 0: the written-out address belongs to the key", () => {
    expect(privateKeyToAccount(DEV_FAUCET_PRIVATE_KEY).address).toBe(DEV_FAUCET_ADDRESS);
    expect(DEV_FAUCET_ADDRESS).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(DEV_FAUCET_BALANCE_WEI).toBe(parseEther('10000'));
  });
});

describe('startLocalChain', () => {
  let local: LocalChain;
  beforeAll(async () => {
    local = await startLocalChain(1337);
  });

  it('answers for the chain id it was given, in block 0, with the dev account funded', async () => {
    const client = createPublicClient({ chain: local.chain, transport: custom(local) });
    expect(local.chain.id).toBe(1337);
    expect(await client.getChainId()).toBe(1337);
    expect(await client.getBlockNumber()).toBe(0n);
    expect(await client.getBalance({ address: DEV_FAUCET_ADDRESS })).toBe(DEV_FAUCET_BALANCE_WEI);
  });

  it('throws the node errors as LocalChainRpcError with their code', async () => {
    const attempt = local.request({ method: 'no_suchMethod' as 'eth_chainId' });
    await expect(attempt).rejects.toBeInstanceOf(LocalChainRpcError);
    await expect(attempt).rejects.toMatchObject({ code: -32004 });
  });

  it('answers a reverted eth_call with an error carrying the revert data, as real nodes do', async () => {
    const account = privateKeyToAccount(DEV_FAUCET_PRIVATE_KEY);
    const wallet = createWalletClient({ account, chain: local.chain, transport: custom(local) });
    const client = createPublicClient({ chain: local.chain, transport: custom(local) });
    const hash = await wallet.deployContract({ abi: TEST_USDC_ABI, bytecode: TEST_USDC_BYTECODE });
    const { contractAddress } = await client.getTransactionReceipt({ hash });
    // Minting from another account reverts (only the owner mints): with bailOnCallFailure off, EDR would
    // answer with the revert data as the call's result instead.
    const stranger = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const data = encodeFunctionData({ abi: TEST_USDC_ABI, functionName: 'mint', args: [stranger, 1n] });
    const call = local.request({
      method: 'eth_call',
      params: [{ from: stranger, to: contractAddress!, data }, 'latest'],
    });
    await expect(call).rejects.toBeInstanceOf(LocalChainRpcError);
    // EDR's code is -32000 (geth's is 3); either way the revert data comes with the error, not as a result.
    await expect(call).rejects.toMatchObject({
      code: -32000,
      data: { data: toFunctionSelector('NotOwner()') },
    });
  });
});
