import type { Address, Hex } from 'viem';

/**
 * The private key of Hardhat's well-known account 0 (address {@link DEV_FAUCET_ADDRESS}), funded in the
 * genesis block of every local chain: the dev chain's faucet, and the tests' funded account.
 *
 * WARNING: this key is PUBLIC — it is printed in Hardhat's and Foundry's documentation and on countless web
 * pages, and bots sweep whatever reaches its address on every public chain. Use it for local development
 * and tests only, never on a real network and never for real money.
 */
export const DEV_FAUCET_PRIVATE_KEY: Hex =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/**
 * The address of {@link DEV_FAUCET_PRIVATE_KEY}. Written out rather than derived, so that importing it
 * costs no elliptic-curve work; a test checks that the two belong together.
 */
export const DEV_FAUCET_ADDRESS: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** The faucet's balance in the genesis block unless asked otherwise: 10,000 ETH. */
export const DEV_FAUCET_BALANCE_WEI = 10_000n * 10n ** 18n;
