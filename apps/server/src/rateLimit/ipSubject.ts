import { isIPv4, isIPv6 } from 'node:net';

/**
 * The subject of a per-IP rate limit (`otp-start:ip:<subject>`): an IPv4 client by its address, an IPv6
 * client by the network its address is in, the first `ipv6PrefixLength` bits (`IPV6_PREFIX_LENGTH`).
 *
 * One IPv6 home, phone or server is given a whole /64 (or more), and picks a new address in it at will: counted
 * address by address, one client would have billions of budgets. An IPv4-mapped IPv6 address (an IPv4 client
 * on a dual-stack socket, `::ffff:203.0.113.7`) is that IPv4 address; an IPv6 network is written in its
 * canonical form (RFC 5952) with its length, so every way of writing an address gives one subject; a zone id
 * (`fe80::1%eth0`) is dropped. Anything that is no IP address is returned as it is.
 *
 * @example
 * ipSubject('2001:DB8:0:1:aaaa::7', 64); // '2001:db8:0:1::/64'
 * ipSubject('::ffff:203.0.113.7', 64); // '203.0.113.7'
 */
export function ipSubject(ip: string, ipv6PrefixLength: number): string {
  if (isIPv4(ip)) return ip;
  const address = ip.replace(/%.*$/, '');
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  // ::ffff:0:0/96, whichever way it was written (`::ffff:c000:207` too).
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  const masked = groups.map((group, index) => {
    const bitsKept = Math.min(16, Math.max(0, ipv6PrefixLength - index * 16));
    return group & ((0xffff << (16 - bitsKept)) & 0xffff);
  });
  return `${canonicalIpv6(masked)}/${ipv6PrefixLength}`;
}

/** The eight 16-bit groups of a valid IPv6 address (without a zone id), a trailing dotted IPv4 part too. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) =>
    part === undefined || part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** RFC 5952: lower-case hex without leading zeros, the first longest run of two or more zero groups as `::`. */
function canonicalIpv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < groups.length; start++) {
    let length = 0;
    while (start + length < groups.length && groups[start + length] === 0) length++;
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
    start += length;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
