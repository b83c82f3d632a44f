import type { Provider, ProviderConfig } from '@nomicfoundation/edr';
import { type Address, hexToBytes } from 'viem';
import { DETERMINISTIC_DEPLOYER, DETERMINISTIC_DEPLOYER_CODE } from './deterministicDeployer.js';

/**
 * The one EDR (Hardhat's Rust EVM) set-up behind every local chain: the dev chain served over HTTP
 * (`startDevChain`) and the in-process chains of the tests (`startLocalChain`). Internal to this package.
 */

/** Hardhat's default; roomy for contract deployments, and blocks here rarely hold more than one transaction. */
const BLOCK_GAS_LIMIT = 30_000_000n;
/**
 * Gas for `eth_call`/`eth_estimateGas` requests that give none. Osaka caps a transaction's gas at 2^24
 * (EIP-7825), so the block gas limit would be refused here.
 */
const DEFAULT_TRANSACTION_GAS_LIMIT = 2n ** 24n;
/** 1 gwei in the genesis block: non-zero, so EIP-1559 fee estimation (viem's included) has a base fee to work with. */
const INITIAL_BASE_FEE_PER_GAS = 1_000_000_000n;
/** Priority fees go here rather than to the faucet, so the faucet's balance only ever drops by what it sends. */
const COINBASE = '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e';

type Edr = typeof import('@nomicfoundation/edr');

let edrRuntime: Promise<{ edr: Edr; context: InstanceType<Edr['EdrContext']> }> | undefined;

/**
 * EDR allows one `EdrContext` per process, and making it (with its provider factory) is most of the cost of
 * a chain, so it is made once and shared. The native module is imported here, when the first chain starts.
 */
function loadEdr(): Promise<{ edr: Edr; context: InstanceType<Edr['EdrContext']> }> {
  edrRuntime ??= (async () => {
    const edr = await import('@nomicfoundation/edr').catch((error: unknown) => {
      // A dev dependency: a production install (npm ci --omit=dev) leaves it out.
      throw new Error(
        'The local chain needs @nomicfoundation/edr, a dev dependency: run `npm install` (with dev ' +
          'dependencies), or set LOCAL_CHAIN=off.',
        { cause: error },
      );
    });
    const context = new edr.EdrContext();
    await context.registerProviderFactory(edr.L1_CHAIN_TYPE, edr.l1ProviderFactory());
    return { edr, context };
  })().catch((error: unknown) => {
    edrRuntime = undefined;
    throw error;
  });
  return edrRuntime;
}

/** An account funded in the genesis block. */
export interface GenesisAccount {
  address: Address;
  balanceWei: bigint;
}

/**
 * A new EDR chain with id `chainId` (also its network id) on the latest hardfork, with `accounts` funded in
 * the genesis block next to the hardfork's system contracts. Every transaction is mined into its own block
 * at once. The node holds no keys: transactions must arrive signed.
 */
export async function createEdrProvider(
  chainId: number,
  accounts: readonly GenesisAccount[],
): Promise<Provider> {
  const { edr, context } = await loadEdr();
  const hardfork = edr.l1HardforkLatest();
  const config: ProviderConfig = {
    allowBlocksWithSameTimestamp: false,
    allowUnlimitedContractSize: false,
    // Behave like a real node (geth, Anvil, public RPCs): a reverted eth_call or eth_estimateGas is a JSON-RPC
    // error carrying the revert data (EDR's code is -32000, geth's 3). With `false`, EDR answers a reverted
    // eth_call with the revert data as if it were the result, so a client (viem's readContract) would decode
    // an error as a return value and a test would pass against behaviour no real chain has.
    bailOnCallFailure: true,
    // A reverting transaction is still mined, with a failed receipt, as on a real chain; not refused.
    bailOnTransactionFailure: false,
    chainId: BigInt(chainId),
    coinbase: hexToBytes(COINBASE),
    defaultTransactionGasLimit: DEFAULT_TRANSACTION_GAS_LIMIT,
    // The hardfork's system contracts (EIP-4788 beacon roots, EIP-2935 block hashes), the deterministic
    // deployment proxy (as on public chains, where ERC-4337's contracts come from it) and the funded accounts.
    genesisState: [
      ...edr.l1GenesisState(hardfork),
      { address: hexToBytes(DETERMINISTIC_DEPLOYER), code: hexToBytes(DETERMINISTIC_DEPLOYER_CODE) },
      ...accounts.map(({ address, balanceWei }) => ({ address: hexToBytes(address), balance: balanceWei })),
    ],
    hardfork: edr.l1HardforkToString(hardfork),
    initialBaseFeePerGas: INITIAL_BASE_FEE_PER_GAS,
    minGasPrice: 0n,
    mining: { autoMine: true, blockGasLimit: BLOCK_GAS_LIMIT, memPool: { order: edr.MineOrdering.Priority } },
    network: { genesisBlockGasLimit: BLOCK_GAS_LIMIT },
    networkId: BigInt(chainId),
    observability: {},
    // No keys on the node: eth_accounts is empty and every transaction arrives signed, as on a real chain.
    ownedAccounts: [],
    precompileOverrides: [],
  };
  return context.createProvider(
    edr.L1_CHAIN_TYPE,
    config,
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
    // Subscriptions need a socket to push to; neither the HTTP server nor `request` has one.
    { subscriptionCallback: () => {} },
    new edr.ContractDecoder(),
  );
}

/**
 * Runs one JSON-RPC call on `provider` and returns EDR's answer, parsed. `params` defaults to `[]`: EDR
 * refuses a request without them (viem leaves them out when there are none).
 */
export async function callEdr(
  provider: Provider,
  call: { method: string; params?: unknown } & Record<string, unknown>,
): Promise<unknown> {
  const response = await provider.handleRequest(
    JSON.stringify({ jsonrpc: '2.0', id: 1, ...call, params: call.params ?? [] }),
  );
  return typeof response.data === 'string' ? JSON.parse(response.data) : response.data;
}
