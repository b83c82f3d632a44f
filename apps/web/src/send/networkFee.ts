import type { ChainClient } from '../chain/createChainClient';
import type { TransferCall } from './transferCall';

/** A fee estimate, and the exact gas and fee caps the transaction is then signed with. */
export interface FeeEstimate {
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  /** The most the transfer can cost: gas × maxFeePerGas, in the native currency's smallest unit. */
  fee: bigint;
}

/**
 * Estimates the network fee of `call` from `from`: `eth_estimateGas` and the chain's EIP-1559 fees (viem's
 * estimate, with its margin on the base fee). The fee is the worst case the balance must cover, which is
 * also what the node checks before it accepts the transaction.
 */
export async function estimateNetworkFee(
  client: Pick<ChainClient, 'estimateGas' | 'estimateFeesPerGas'>,
  from: `0x${string}`,
  call: TransferCall,
): Promise<FeeEstimate> {
  const [gas, fees] = await Promise.all([
    client.estimateGas({ account: from, to: call.to, value: call.value, data: call.data }),
    client.estimateFeesPerGas(),
  ]);
  return {
    gas,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    fee: gas * fees.maxFeePerGas,
  };
}
