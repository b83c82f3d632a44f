import { DialError } from './errors.js';

/** Standard base64 with its padding: groups of four characters, the last ending in at most two `=`. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Reads a key share written by {@link encodeShare}: strict standard base64, padding included. Uses `atob`, so
 * it runs in browsers and in Node without `Buffer`.
 *
 * @param text - The base64 text.
 * @returns The share's bytes.
 * @throws {DialError} `invalid_data` when `text` is empty or not standard base64 (base64url, missing padding
 * and whitespace are refused too).
 *
 * @example
 * ```ts
 * decodeShare('AQID'); // Uint8Array [1, 2, 3]
 * ```
 */
export function decodeShare(text: string): Uint8Array {
  if (typeof text !== 'string' || text.length === 0 || !BASE64.test(text)) {
    throw new DialError('invalid_data', { details: 'key share is not base64' });
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
