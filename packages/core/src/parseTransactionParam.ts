import {
  type AccessList,
  type Address,
  type Hex,
  hexToBigInt,
  InvalidParamsRpcError,
  isAddress,
  isHex,
} from 'viem';

/**
 * A transaction request as a wallet receives it in `eth_sendTransaction`, read into viem's shapes: quantities
 * as `bigint`, the nonce and chain id as numbers, the type as viem's name. Not exported from the package:
 * `createEmbeddedProvider` uses it.
 */
export interface TransactionParam {
  from?: Address;
  to?: Address | null;
  value?: bigint;
  data?: Hex;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  nonce?: number;
  accessList?: AccessList;
  chainId?: number;
  type?: 'legacy' | 'eip2930' | 'eip1559';
}

const TYPES: Readonly<Record<string, TransactionParam['type']>> = {
  '0x0': 'legacy',
  '0x1': 'eip2930',
  '0x2': 'eip1559',
};

/**
 * Reads the transaction object of `eth_sendTransaction` / `wallet_sendTransaction` (EIP-1474 field names,
 * hex quantities). Fields it does not know are refused rather than dropped, so nothing the app asked for is
 * silently left out of what gets signed.
 *
 * @throws {InvalidParamsRpcError} (-32602) when the object is malformed.
 */
export function parseTransactionParam(value: unknown): TransactionParam {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('the transaction must be an object');
  }
  const tx: TransactionParam = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    // JSON-RPC callers send null for "not set" (ethers does for `to` in deployments).
    if (field === undefined || field === null) continue;
    switch (key) {
      case 'from':
        tx.from = address(key, field);
        break;
      case 'to':
        tx.to = address(key, field);
        break;
      case 'value':
      case 'gas':
      case 'gasPrice':
      case 'maxFeePerGas':
      case 'maxPriorityFeePerGas':
        tx[key] = quantity(key, field);
        break;
      case 'gasLimit':
        tx.gas = quantity(key, field);
        break;
      case 'nonce':
      case 'chainId':
        tx[key] = smallQuantity(key, field);
        break;
      case 'data':
      case 'input':
        if (!isHex(field, { strict: true }) || field.length % 2 !== 0)
          throw invalid(`${key} is not hex bytes`);
        if (tx.data !== undefined && tx.data !== field) throw invalid('data and input differ');
        tx.data = field;
        break;
      case 'accessList':
        if (!Array.isArray(field)) throw invalid('accessList is not an array');
        tx.accessList = field as AccessList;
        break;
      case 'type': {
        const type = typeof field === 'string' ? TYPES[field.toLowerCase()] : undefined;
        if (type === undefined) throw invalid(`transaction type ${String(field)} is not supported`);
        tx.type = type;
        break;
      }
      default:
        throw invalid(`unknown transaction field "${key}"`);
    }
  }
  if (tx.gasPrice !== undefined && (tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined)) {
    throw invalid('gasPrice cannot be given with maxFeePerGas or maxPriorityFeePerGas');
  }
  return tx;
}

function invalid(details: string): InvalidParamsRpcError {
  return new InvalidParamsRpcError(new Error(`Invalid transaction: ${details}.`));
}

function address(key: string, value: unknown): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false }))
    throw invalid(`${key} is not an address`);
  return value;
}

function quantity(key: string, value: unknown): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) {
    throw invalid(`${key} is not a hex quantity`);
  }
  return hexToBigInt(value as Hex);
}

function smallQuantity(key: string, value: unknown): number {
  const number = Number(quantity(key, value));
  if (!Number.isSafeInteger(number)) throw invalid(`${key} is too large`);
  return number;
}
