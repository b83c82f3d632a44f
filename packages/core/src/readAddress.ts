import { getAddress, isAddress } from 'viem';
import { DialError } from './errors.js';

/**
 * Reads an EVM address an API client sent: `0x` and 40 hex digits, where a mixed-case address must carry a
 * valid EIP-55 checksum (it catches a mangled one) and an all-lower-case one carries none. The result is
 * checksummed, the form Dial stores and answers with.
 *
 * @param text - The address as sent, e.g. `'0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'`.
 * @returns The EIP-55 checksummed address.
 * @throws {DialError} `invalid_data` (details `address checksum`) when it is not an address or its
 * checksum is wrong.
 *
 * @example
 * ```ts
 * readAddress('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'); // '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
 * readAddress('0xF39fd6e51aad88f6f4ce6ab8827279cfffb92266'); // throws invalid_data
 * ```
 */
export function readAddress(text: string): `0x${string}` {
  if (!isAddress(text, { strict: true })) {
    throw new DialError('invalid_data', { details: 'address checksum' });
  }
  return getAddress(text);
}
