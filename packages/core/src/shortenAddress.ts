/**
 * Shortens an address for display: its first six characters (`0x` and four hex digits), `…`, and its last
 * four. Strings of ten characters or fewer are returned as they are, since shortening would hide nothing.
 *
 * @param address - An EVM address, e.g. `'0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'`.
 * @returns The short form, e.g. `'0xf39F…2266'`.
 *
 * @example
 * ```ts
 * shortenAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'); // '0xf39F…2266'
 * ```
 */
export function shortenAddress(address: string): string {
  if (address.length <= 10) return address;
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
