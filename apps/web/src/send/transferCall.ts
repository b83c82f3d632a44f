import { encodeFunctionData, erc20Abi } from 'viem';
import type { SendAsset } from './amount';

/** The call that moves the funds: what is signed, and what the fee is estimated for. */
export interface TransferCall {
  to: `0x${string}`;
  value: bigint;
  data?: `0x${string}`;
}

/**
 * The native currency goes straight to the recipient with `value`; USDC is a call to the chain's USDC
 * contract, `transfer(recipient, amount)`, with no value.
 */
export function transferCall(
  asset: SendAsset,
  recipient: `0x${string}`,
  amount: bigint,
  usdc: `0x${string}` | undefined,
): TransferCall {
  if (asset === 'native') return { to: recipient, value: amount };
  if (usdc === undefined) throw new Error('This network has no USDC.');
  return {
    to: usdc,
    value: 0n,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] }),
  };
}
