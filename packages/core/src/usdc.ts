import type { Address } from 'viem';
import { LOCAL_CHAIN_ID } from './chains.js';

/**
 * The official USDC contract (issued natively by Circle, not a bridged copy) on each supported chain that
 * has one, by chain id: Polygon (137), Arbitrum One (42161), Base (8453) and Base Sepolia (84532, Circle's
 * testnet USDC). Zora (7777777) has none: Circle does not issue USDC there, and the bridged tokens found on
 * it are not USDC. The local chain (31337) is not listed: its test USDC is deployed at start, see
 * {@link getUsdcAddress}.
 *
 * Source: Circle's "USDC Contract Addresses" page, https://developers.circle.com/stablecoins/usdc-contract-addresses
 * (mainnet and testnet tables), cross-checked against Gelato's USDC address list
 * (https://docs.gelato.cloud/1Balance/USDC-Addresess) and, for Base Sepolia, Interlace's testnet list
 * (https://developer.interlace.money/docs/usdc-on-testing-networks). A wrong address here sends real money
 * to the wrong contract: change one only against Circle's page and the chain's explorer.
 *
 * @example
 * ```ts
 * USDC_ADDRESSES[8453]; // '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
 * USDC_ADDRESSES[7777777]; // undefined
 * ```
 */
export const USDC_ADDRESSES: Readonly<Partial<Record<number, Address>>> = Object.freeze({
  137: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  42161: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  8453: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  84532: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
});

/** USDC's decimals, the same on every chain (and on the local test USDC): 1 USDC is `1_000_000` units. */
export const USDC_DECIMALS = 6;

/**
 * The USDC contract to use on a chain: Circle's from {@link USDC_ADDRESSES}, or on the local chain (31337)
 * the test USDC deployed there, which the server reports in `/api/config` (`localChain.usdc`).
 *
 * @param chainId - The chain id.
 * @param localUsdc - The local chain's test USDC address; only read when `chainId` is 31337.
 * @returns The contract's address, or `undefined` when the chain has no USDC (Zora, an unknown chain, or the
 * local chain without a `localUsdc`).
 *
 * @example
 * ```ts
 * getUsdcAddress(137); // '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'
 * getUsdcAddress(7777777); // undefined
 * getUsdcAddress(31337, '0x5FbDB2315678afecb367f032d93F642f64180aa3'); // '0x5FbDB2315678afecb367f032d93F642f64180aa3'
 * ```
 */
export function getUsdcAddress(chainId: number, localUsdc?: Address | null): Address | undefined {
  if (chainId === LOCAL_CHAIN_ID) return localUsdc ?? undefined;
  return USDC_ADDRESSES[chainId];
}
