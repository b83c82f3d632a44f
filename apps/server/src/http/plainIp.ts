import { isIPv4 } from 'node:net';

/**
 * The client's IP address as people write it: an IPv4 address that reached a dual-stack socket as an
 * IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) becomes `203.0.113.7`; anything else is returned as is.
 * For services that compare it with the address they see (Coinbase's on-ramp checks `clientIp`).
 */
export function plainIp(ip: string): string {
  const mapped = /^::ffff:(.+)$/i.exec(ip);
  return mapped !== null && isIPv4(mapped[1]!) ? mapped[1]! : ip;
}
