import { concat, encodeAbiParameters, type Hex, hexToNumber, keccak256, pad, size, slice, toHex } from 'viem';
import type { PackedUserOperation } from 'viem/account-abstraction';

/**
 * ERC-4337's EntryPoint v0.8 (eth-infinitism), at the same address on every chain Dial supports and on the
 * local chain (deployed there from the published artifact with the same CREATE2 salt).
 */
export const ENTRY_POINT_V08 = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108' as const;

/**
 * eth-infinitism's `Simple7702Account` for EntryPoint v0.8: the audited account implementation an embedded
 * wallet delegates to (EIP-7702), so that it keeps its address and gains batched calls and paid-for fees.
 */
export const SIMPLE_7702_ACCOUNT = '0xe6Cae83BdE06E4c305530e199D7217f42808555B' as const;

/**
 * Dial's verifying paymaster (`DialPaymaster.sol`): it pays a user operation's fee when the operator's
 * paymaster signer signed the operation, within a validity window. Its `paymasterData` is
 * `validUntil (6 bytes) ‖ validAfter (6 bytes) ‖ signature (65 bytes)`, after the packed
 * `paymaster ‖ paymasterVerificationGasLimit ‖ paymasterPostOpGasLimit` prefix of `paymasterAndData`.
 */
export const DIAL_PAYMASTER_DATA_BYTES = 6 + 6 + 65;

/** The gas Dial's paymaster is given to check the signature, and for its (empty) post-operation step. */
export const DIAL_PAYMASTER_GAS = {
  paymasterVerificationGasLimit: 60_000n,
  paymasterPostOpGasLimit: 0n,
} as const;

/** When a paymaster signature is valid: unix seconds, `validUntil` 0 meaning "no end" (as EntryPoint reads it). */
export interface PaymasterWindow {
  validUntil: number;
  validAfter: number;
}

const UINT48_MAX = 2 ** 48 - 1;

/**
 * The hash Dial's paymaster signer signs (as an EIP-191 personal message) to pay for `userOperation`,
 * exactly as `DialPaymaster.getHash` computes it on chain: every field of the packed operation except its
 * signature and the paymaster's own data, the paymaster's gas limits, the chain, the paymaster's address and
 * the window. So a signature pays for this operation only, on this chain, through this paymaster, once (the
 * nonce is in it), and only while the window is open.
 *
 * @param userOperation - Packed as sent to the EntryPoint; its `paymasterAndData` must start with the paymaster
 *   and its two gas limits (52 bytes); what follows is ignored.
 */
export function dialPaymasterHash(
  userOperation: PackedUserOperation,
  chainId: number,
  paymaster: Hex,
  window: PaymasterWindow,
): Hex {
  checkWindow(window);
  if (size(userOperation.paymasterAndData) < 52) {
    throw new RangeError("The user operation's paymasterAndData must hold the paymaster and its gas limits");
  }
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        userOperation.sender,
        userOperation.nonce,
        keccak256(userOperation.initCode),
        keccak256(userOperation.callData),
        userOperation.accountGasLimits,
        BigInt(slice(userOperation.paymasterAndData, 20, 52)),
        userOperation.preVerificationGas,
        userOperation.gasFees,
        BigInt(chainId),
        paymaster,
        window.validUntil,
        window.validAfter,
      ],
    ),
  );
}

/** `paymasterData` for Dial's paymaster: the window and the signer's 65-byte signature. */
export function encodeDialPaymasterData(window: PaymasterWindow, signature: Hex): Hex {
  checkWindow(window);
  if (size(signature) !== 65) throw new RangeError('A paymaster signature is 65 bytes');
  return concat([
    pad(toHex(window.validUntil), { size: 6 }),
    pad(toHex(window.validAfter), { size: 6 }),
    signature,
  ]);
}

/** Reads `paymasterData` of Dial's paymaster back into its window and signature. */
export function decodeDialPaymasterData(paymasterData: Hex): PaymasterWindow & { signature: Hex } {
  if (size(paymasterData) !== DIAL_PAYMASTER_DATA_BYTES) {
    throw new RangeError(`Dial's paymasterData is ${DIAL_PAYMASTER_DATA_BYTES} bytes`);
  }
  return {
    validUntil: hexToNumber(slice(paymasterData, 0, 6)),
    validAfter: hexToNumber(slice(paymasterData, 6, 12)),
    signature: slice(paymasterData, 12),
  };
}

function checkWindow({ validUntil, validAfter }: PaymasterWindow): void {
  for (const value of [validUntil, validAfter]) {
    if (!Number.isSafeInteger(value) || value < 0 || value > UINT48_MAX) {
      throw new RangeError('A paymaster window is two unix times from 0 to 2^48 - 1');
    }
  }
}
