import { isIP } from 'node:net';

/**
 * Whether `host` (a `HOST` value) is a loopback interface only: `localhost`, an address in 127.0.0.0/8, or
 * `::1`. `0.0.0.0`, `::` and any other address or name may be reachable from other machines.
 *
 * @param host - The interface to listen on.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  // The URL parser writes an IPv6 address in its shortest form (0:0:0:0:0:0:0:1 as ::1, ::ffff:7f00:1 for
  // ::ffff:127.0.0.1).
  if (isIP(bare) === 6)
    return /^\[(::1|::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4})\]$/.test(new URL(`http://[${bare}]`).hostname);
  return false;
}
