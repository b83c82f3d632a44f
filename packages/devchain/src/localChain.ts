import { type Chain, defineChain, type EIP1193RequestFn } from 'viem';
import { DEV_FAUCET_ADDRESS, DEV_FAUCET_BALANCE_WEI } from './devAccount.js';
import { callEdr, createEdrProvider } from './edrProvider.js';

export { DEV_FAUCET_ADDRESS, DEV_FAUCET_BALANCE_WEI, DEV_FAUCET_PRIVATE_KEY } from './devAccount.js';

/** A local chain in this process: its viem description and the function that answers its JSON-RPC requests. */
export interface LocalChain {
  chain: Chain;
  request: EIP1193RequestFn;
}

/** A JSON-RPC error answered by the chain, with the node's own code, message and data. */
export class LocalChainRpcError extends Error {
  override readonly name = 'LocalChainRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * Starts a local chain with id `chainId` in this process, for tests: the same EVM as the dev chain
 * (`startDevChain`), without HTTP and without the test USDC. {@link DEV_FAUCET_ADDRESS} holds
 * {@link DEV_FAUCET_BALANCE_WEI} in the genesis block; every transaction is mined into its own block at once.
 * Hand `request` to an EIP-1193 consumer (viem's `custom` transport, `createEmbeddedProvider`'s `transport`).
 *
 * @example
 * const local = await startLocalChain(31337);
 * await local.request({ method: 'eth_chainId' }); // '0x7a69'
 */
export async function startLocalChain(chainId: number): Promise<LocalChain> {
  const provider = await createEdrProvider(chainId, [
    { address: DEV_FAUCET_ADDRESS, balanceWei: DEV_FAUCET_BALANCE_WEI },
  ]);

  let nextId = 1;
  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    const answer = (await callEdr(provider, { id: nextId++, method, params })) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    if (answer.error !== undefined) {
      throw new LocalChainRpcError(answer.error.code, answer.error.message, answer.error.data);
    }
    return answer.result;
  }) as EIP1193RequestFn;

  const chain = defineChain({
    id: chainId,
    name: `Local ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    // Never fetched: the chain is reached through `request`.
    rpcUrls: { default: { http: [`http://chain-${chainId}.invalid`] } },
    testnet: true,
  });
  return { chain, request };
}
