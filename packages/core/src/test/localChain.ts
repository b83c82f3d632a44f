import type { Provider, ProviderConfig } from '@nomicfoundation/edr';
import { type Address, type Chain, defineChain, type EIP1193RequestFn, type Hex, hexToBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * Test helper (not part of the build): an in-process EVM chain (EDR, Hardhat's Rust EVM) exposed as an
 * EIP-1193 `request` function, to hand to `createEmbeddedProvider`'s `transport` option. No HTTP: requests
 * go straight to the EVM.
 *
 * The set-up follows apps/server/src/devchain/devChain.ts (copied, not imported: the core package does not
 * depend on the server).
 */

/**
 * The private key of Hardhat's well-known account 0 (0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266).
 *
 * WARNING: this key is PUBLIC; use it for local tests only.
 */
export const TEST_PRIVATE_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/** The address of {@link TEST_PRIVATE_KEY}, funded in the genesis block of every local chain. */
export const TEST_ADDRESS: Address = privateKeyToAccount(TEST_PRIVATE_KEY).address;

/** The funded account's balance in the genesis block: 10,000 ETH. */
export const TEST_BALANCE_WEI = 10_000n * 10n ** 18n;

/** A local chain: its viem description and the function that answers its JSON-RPC requests. */
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

type Edr = typeof import('@nomicfoundation/edr');

let edrRuntime: Promise<{ edr: Edr; context: InstanceType<Edr['EdrContext']> }> | undefined;

/** EDR allows one `EdrContext` per process: made once, shared by every chain. */
function loadEdr(): Promise<{ edr: Edr; context: InstanceType<Edr['EdrContext']> }> {
  edrRuntime ??= (async () => {
    const edr = await import('@nomicfoundation/edr');
    const context = new edr.EdrContext();
    await context.registerProviderFactory(edr.L1_CHAIN_TYPE, edr.l1ProviderFactory());
    return { edr, context };
  })();
  return edrRuntime;
}

const BLOCK_GAS_LIMIT = 30_000_000n;

/**
 * Starts an in-process local chain with id `chainId`; {@link TEST_ADDRESS} holds {@link TEST_BALANCE_WEI}.
 * Every transaction is mined into its own block at once.
 *
 * @example
 * const local = await startLocalChain(31337);
 * await local.request({ method: 'eth_chainId' }); // '0x7a69'
 */
export async function startLocalChain(chainId: number): Promise<LocalChain> {
  const { edr, context } = await loadEdr();
  const hardfork = edr.l1HardforkLatest();
  const config: ProviderConfig = {
    allowBlocksWithSameTimestamp: false,
    allowUnlimitedContractSize: false,
    bailOnCallFailure: false,
    bailOnTransactionFailure: false,
    chainId: BigInt(chainId),
    coinbase: hexToBytes('0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e'),
    defaultTransactionGasLimit: 2n ** 24n,
    genesisState: [
      ...edr.l1GenesisState(hardfork),
      { address: hexToBytes(TEST_ADDRESS), balance: TEST_BALANCE_WEI },
    ],
    hardfork: edr.l1HardforkToString(hardfork),
    initialBaseFeePerGas: 1_000_000_000n,
    minGasPrice: 0n,
    mining: { autoMine: true, blockGasLimit: BLOCK_GAS_LIMIT, memPool: { order: edr.MineOrdering.Priority } },
    network: { genesisBlockGasLimit: BLOCK_GAS_LIMIT },
    networkId: BigInt(chainId),
    observability: {},
    // No keys on the node: every transaction must arrive signed, as on a real chain.
    ownedAccounts: [],
    precompileOverrides: [],
  };
  const provider: Provider = await context.createProvider(
    edr.L1_CHAIN_TYPE,
    config,
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
    { subscriptionCallback: () => {} },
    new edr.ContractDecoder(),
  );

  let nextId = 1;
  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    const response = await provider.handleRequest(
      // EDR refuses a request without params.
      JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: params ?? [] }),
    );
    const data: unknown = typeof response.data === 'string' ? JSON.parse(response.data) : response.data;
    const answer = data as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
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
