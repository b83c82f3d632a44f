import {
  type Address,
  type Hex,
  keccak256,
  recoverTransactionAddress,
  type Signature,
  serializeTransaction,
  type Transaction,
  type TransactionSerializable,
} from 'viem';

/**
 * Whether a transaction as an RPC described it is what its hash commits to, signed by its `from`:
 * - `authentic`: the fields, serialised with the signature, hash to `hash`, and the signature recovers to
 *   `from`. So `from`, `to`, `value` and the call data are the chain's, whatever the RPC is: forging them
 *   would need the sender's key or a keccak collision. (The receipt, mined or not, status and logs, cannot
 *   be checked this way: those the RPC is trusted for.)
 * - `forged`: they are not (an RPC lying or broken).
 * - `unsupported`: a type a Dial wallet never sends nor has sent for it (EIP-4844 blobs, a rollup's deposit).
 *
 * @example
 * await checkSignedTransaction(await client.getTransaction({ hash })); // 'authentic'
 */
export async function checkSignedTransaction(
  transaction: Transaction,
): Promise<'authentic' | 'forged' | 'unsupported'> {
  const base = {
    nonce: transaction.nonce,
    gas: transaction.gas,
    value: transaction.value,
    data: transaction.input,
    ...(transaction.to === null ? {} : { to: transaction.to }),
  };
  let serializable: TransactionSerializable;
  let signature: Signature;
  switch (transaction.type) {
    case 'legacy':
      serializable = {
        ...base,
        type: 'legacy',
        gasPrice: transaction.gasPrice,
        // Before EIP-155 a signature covers no chain id: v is 27 or 28.
        ...(transaction.v >= 35n && transaction.chainId !== undefined
          ? { chainId: transaction.chainId }
          : {}),
      };
      signature = { r: transaction.r, s: transaction.s, v: transaction.v };
      break;
    case 'eip2930':
      serializable = {
        ...base,
        type: 'eip2930',
        chainId: transaction.chainId,
        gasPrice: transaction.gasPrice,
        accessList: transaction.accessList,
      };
      signature = { r: transaction.r, s: transaction.s, yParity: transaction.yParity };
      break;
    case 'eip1559':
      serializable = {
        ...base,
        type: 'eip1559',
        chainId: transaction.chainId,
        maxFeePerGas: transaction.maxFeePerGas,
        maxPriorityFeePerGas: transaction.maxPriorityFeePerGas,
        accessList: transaction.accessList,
      };
      signature = { r: transaction.r, s: transaction.s, yParity: transaction.yParity };
      break;
    case 'eip7702':
      // A bundler's transaction that carries a wallet's first delegation (EIP-7702) with its user operation.
      serializable = {
        ...base,
        type: 'eip7702',
        chainId: transaction.chainId,
        maxFeePerGas: transaction.maxFeePerGas,
        maxPriorityFeePerGas: transaction.maxPriorityFeePerGas,
        accessList: transaction.accessList,
        authorizationList: transaction.authorizationList,
      };
      signature = { r: transaction.r, s: transaction.s, yParity: transaction.yParity };
      break;
    default:
      return 'unsupported';
  }
  let serialized: Hex;
  let signer: Address;
  try {
    serialized = serializeTransaction(serializable, signature);
    signer = await recoverTransactionAddress({ serializedTransaction: serialized as never });
  } catch {
    // Fields no valid transaction has (a signature off the curve, a missing fee).
    return 'forged';
  }
  const matches =
    keccak256(serialized) === transaction.hash.toLowerCase() &&
    signer.toLowerCase() === transaction.from.toLowerCase();
  return matches ? 'authentic' : 'forged';
}
