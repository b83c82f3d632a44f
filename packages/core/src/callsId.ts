import { concat, type Hex, hexToNumber, isHex, numberToHex, size, slice } from 'viem';

/** Where the embedded provider's `showCallsStatus` finds the calls an id stands for. */
export interface CallsLocation {
  /** The chain the user operation was sent on. */
  chainId: number;
  /** The ERC-4337 user operation's hash. */
  userOperationHash: Hex;
}

/**
 * EIP-5792 batch ids of the embedded wallet's provider: the user operation's hash, then the chain id as 32
 * bytes (64 bytes in hex), so that any provider of the wallet reads a batch's status with no state.
 */
export function encodeCallsId({ chainId, userOperationHash }: CallsLocation): Hex {
  return concat([userOperationHash, numberToHex(chainId, { size: 32 })]);
}

/** Reads {@link encodeCallsId}'s id back, or undefined when it is not one. */
export function decodeCallsId(id: string): CallsLocation | undefined {
  if (!isHex(id, { strict: true }) || size(id) !== 64) return undefined;
  const chainId = BigInt(slice(id, 32));
  if (chainId === 0n || chainId > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return { chainId: hexToNumber(slice(id, 32)), userOperationHash: slice(id, 0, 32).toLowerCase() as Hex };
}

/** The most calls one `wallet_sendCalls` takes (more fail with 5740): a bound on the person's review. */
export const MAX_CALLS_PER_BATCH = 32;
