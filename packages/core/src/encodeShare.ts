/**
 * Writes a key share (or any bytes) as standard base64 (RFC 4648, with `+`, `/` and `=` padding), to store it
 * or send it as text. Uses `btoa`, so it runs in browsers and in Node without `Buffer`.
 *
 * @param bytes - The share.
 * @returns Its base64 text; read it back with {@link decodeShare}.
 *
 * @example
 * ```ts
 * encodeShare(new Uint8Array([1, 2, 3])); // 'AQID'
 * ```
 */
export function encodeShare(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
