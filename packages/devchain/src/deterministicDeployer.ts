import type { Address, Hex } from 'viem';

/**
 * The deterministic deployment proxy (Arachnid's, at the same address on nearly every EVM chain): CREATE2 of
 * `salt ‖ initCode` sent to it. ERC-4337's contracts are deployed through it, which is what gives them one
 * address everywhere, and the bundler deploys its simulation contracts through it too.
 */
export const DETERMINISTIC_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

/**
 * The proxy's runtime code, put in the genesis block of every local chain: on public chains it arrives by a
 * keyless pre-EIP-155 transaction, which a local chain has no reason to replay.
 */
export const DETERMINISTIC_DEPLOYER_CODE: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3';
