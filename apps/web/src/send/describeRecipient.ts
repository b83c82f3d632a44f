import { maskIdentifier, shortenAddress } from '@dial/core';

/**
 * Who was paid, as the send's confirmation says it: the number masked but for its last four digits and the
 * shortened address (`*3456 · 0x8ba1…BA72`), or the address alone for a send to an address.
 */
export function describeRecipient(recipient: { address: string; phone?: string }): string {
  const address = shortenAddress(recipient.address);
  return recipient.phone === undefined ? address : `${maskIdentifier(recipient.phone)} · ${address}`;
}
