import { type Address, decodeFunctionData, getAddress, type Hex, parseAbi } from 'viem';

/** The two entry points of eth-infinitism's Simple7702Account (and its BaseAccount) that run calls. */
export const SIMPLE_7702_ACCOUNT_CALLS_ABI = parseAbi([
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
]);

/** One call an account makes: to whom, how much of the native currency, with what call data. */
export interface AccountCall {
  to: Address;
  value: bigint;
  data: Hex;
}

/**
 * The calls a Simple7702Account user operation's `callData` makes: one for `execute`, each of `executeBatch`
 * in order. `undefined` when the call data is anything else (another function, or not decodable), which a
 * reader must treat as "not a transfer it can vouch for".
 *
 * @example
 * decodeAccountCalls(operation.callData); // [{ to: '0x…', value: 0n, data: '0xa9059cbb…' }]
 */
export function decodeAccountCalls(callData: Hex): AccountCall[] | undefined {
  try {
    const call = decodeFunctionData({ abi: SIMPLE_7702_ACCOUNT_CALLS_ABI, data: callData });
    if (call.functionName === 'execute') {
      const [to, value, data] = call.args;
      return [{ to: getAddress(to), value, data }];
    }
    return call.args[0].map(({ target, value, data }) => ({ to: getAddress(target), value, data }));
  } catch {
    return undefined;
  }
}
