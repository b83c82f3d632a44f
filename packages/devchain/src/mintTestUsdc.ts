import { type Address, encodeFunctionData, type Hex, isAddress } from 'viem';
import { TEST_USDC_ABI } from './contracts/testUsdcArtifact.js';
import { sendFaucetTransaction } from './sendFromFaucet.js';

/** Options of {@link mintTestUsdc}. */
export interface MintTestUsdcOptions {
  /** The chain's JSON-RPC endpoint, e.g. a {@link DevChain}'s `url`. */
  rpcUrl: string;
  /** The chain id the endpoint must report; the transaction is signed for it (EIP-155). */
  chainId: number;
  /** The test USDC contract, a {@link DevChain}'s `usdc`. */
  usdc: Address;
  to: Address;
  /** In units of 6 decimals: `100_000_000n` is 100 USDC. */
  amount: bigint;
  /** The test USDC's owner (its deployer); defaults to {@link DEV_FAUCET_PRIVATE_KEY}. */
  faucetPrivateKey?: Hex;
}

/**
 * Mints `amount` test USDC (6 decimals) to `to` on the local dev chain, as the token's owner (the faucet
 * account that deployed it in {@link startDevChain}), waits until it is mined, and returns the hash. It takes
 * its turn in the faucet's send queue with {@link sendFromFaucet}, so their nonces never collide.
 * Throws when the endpoint is on another chain or the mint reverted (not the owner, `to` is zero).
 *
 * @example
 * const chain = await startDevChain({ port: 0 });
 * await mintTestUsdc({ rpcUrl: chain.url, chainId: chain.chainId, usdc: chain.usdc, to, amount: 100_000_000n });
 */
export async function mintTestUsdc(options: MintTestUsdcOptions): Promise<Hex> {
  const { usdc, to, amount } = options;
  if (!isAddress(usdc, { strict: false })) throw new TypeError(`Not an address: ${String(usdc)}`);
  if (!isAddress(to, { strict: false })) throw new TypeError(`Not an address: ${String(to)}`);
  if (typeof amount !== 'bigint' || amount < 0n) {
    throw new RangeError(`The amount must be a non-negative bigint of USDC units, not ${String(amount)}`);
  }
  const data = encodeFunctionData({ abi: TEST_USDC_ABI, functionName: 'mint', args: [to, amount] });
  return sendFaucetTransaction(options, { to: usdc, data }, (hash) => `The test USDC mint ${hash} to ${to}`);
}
