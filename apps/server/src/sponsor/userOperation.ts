import type { UserOperationRequest } from '@dial/api';
import { DialError, ENTRY_POINT_V08 } from '@dial/core';
import { type Address, getAddress, type Hex, hexToBigInt, type SignedAuthorization } from 'viem';
import {
  getUserOperationHash,
  type PackedUserOperation,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction';

/** A user operation for EntryPoint v0.8 in viem's form (numbers as bigints), read from its RPC form. */
export type UserOperationV08 = UserOperation<'0.8'>;

/**
 * Reads an operation as ERC-7677 and the bundler RPC write it (hex numbers) into viem's form. Missing gas
 * fields (a stub request's) are 0; `signature` is dropped (nothing the server signs or counts covers it).
 */
export function readUserOperation(request: UserOperationRequest): UserOperationV08 {
  const quantity = (value: string | null | undefined): bigint =>
    value === undefined || value === null ? 0n : hexToBigInt(value as Hex);
  const operation: UserOperationV08 = {
    sender: getAddress(request.sender),
    nonce: quantity(request.nonce),
    callData: request.callData as Hex,
    callGasLimit: quantity(request.callGasLimit),
    verificationGasLimit: quantity(request.verificationGasLimit),
    preVerificationGas: quantity(request.preVerificationGas),
    maxFeePerGas: quantity(request.maxFeePerGas),
    maxPriorityFeePerGas: quantity(request.maxPriorityFeePerGas),
    signature: '0x',
  };
  if (request.factory !== undefined && request.factory !== null) {
    operation.factory = request.factory as Address;
    operation.factoryData = (request.factoryData ?? '0x') as Hex;
  }
  if (request.paymaster !== undefined && request.paymaster !== null) {
    operation.paymaster = getAddress(request.paymaster);
    operation.paymasterVerificationGasLimit = quantity(request.paymasterVerificationGasLimit);
    operation.paymasterPostOpGasLimit = quantity(request.paymasterPostOpGasLimit);
    operation.paymasterData = (request.paymasterData ?? '0x') as Hex;
  }
  return operation;
}

/**
 * The most the operation can cost whoever pays its fee: every gas limit (the account's verification and
 * call, the pre-verification gas, the paymaster's verification and post-operation) × its max fee per gas.
 * What the EntryPoint takes from the paymaster's deposit is never more; the daily cap counts this.
 */
export function maxCostWei(operation: UserOperationV08): bigint {
  const gas =
    operation.verificationGasLimit +
    operation.callGasLimit +
    operation.preVerificationGas +
    (operation.paymasterVerificationGasLimit ?? 0n) +
    (operation.paymasterPostOpGasLimit ?? 0n);
  return gas * operation.maxFeePerGas;
}

/** Whether the operation is an EIP-7702 account's (`factory` is the `0x7702` marker). */
export function isEip7702Operation(operation: UserOperationV08): boolean {
  const factory = operation.factory?.toLowerCase();
  return factory === '0x7702' || factory === '0x7702000000000000000000000000000000000000';
}

/**
 * The EntryPoint's hash of the operation (EIP-712 for v0.8), which excludes the account's signature: the
 * operation's name in the bundler and in the EntryPoint's `UserOperationEvent`. For an EIP-7702 account,
 * the hash covers the delegate (`delegate`), as the EntryPoint computes it.
 */
export function userOperationHash(
  operation: UserOperationV08,
  chainId: number,
  delegate: Address | null,
): Hex {
  return getUserOperationHash({
    chainId,
    entryPointAddress: ENTRY_POINT_V08,
    entryPointVersion: '0.8',
    userOperation: {
      ...operation,
      ...(delegate === null ? {} : { authorization: { address: delegate } as SignedAuthorization }),
    },
  });
}

/** The operation packed as the bundler hands it to the EntryPoint (what the paymaster contract reads). */
export function packUserOperation(operation: UserOperationV08): PackedUserOperation {
  return toPackedUserOperation(operation);
}

/** Reads the `chainId` parameter (hex) of an ERC-7677 request. */
export function readChainIdParam(text: string): number {
  const id = Number(hexToBigInt(text as Hex));
  if (!Number.isSafeInteger(id) || id < 1) throw new DialError('invalid_data', { details: 'chainId' });
  return id;
}
