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

/**
 * The local chain's paymaster signer: Hardhat's well-known account 1. On the local chain `DialPaymaster` is
 * deployed with this signer, and the development server signs sponsorships with it unless
 * `PAYMASTER_SIGNER_KEY` says otherwise. PUBLIC like {@link DEV_FAUCET_PRIVATE_KEY}: local use only.
 */
export const DEV_PAYMASTER_SIGNER_PRIVATE_KEY: Hex =
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

/** The address of {@link DEV_PAYMASTER_SIGNER_PRIVATE_KEY}. */
export const DEV_PAYMASTER_SIGNER_ADDRESS: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/**
 * The local bundler's keys (Hardhat's well-known accounts 2 and 3): the executor sends the bundles, the
 * utility key deploys the bundler's simulation contracts. PUBLIC: local use only.
 */
export const DEV_BUNDLER_EXECUTOR_PRIVATE_KEY: Hex =
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
export const DEV_BUNDLER_UTILITY_PRIVATE_KEY: Hex =
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
