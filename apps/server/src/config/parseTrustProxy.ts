import { isIP } from 'node:net';
import type { TrustProxy } from './appConfig.js';
import { ConfigError } from './configError.js';

const TRUST_PROXY_USAGE =
  'set the number of proxies in front of Dial (TRUST_PROXY=1) or their addresses ' +
  '(TRUST_PROXY=10.0.0.0/8, or several separated by commas)';

/**
 * Reads `TRUST_PROXY`: unset or `false` trusts no proxy; a whole number from 1 is a hop count; otherwise a
 * comma-separated list of IP addresses, CIDR ranges (`10.0.0.0/8`, `fd00::/8`) or the names `loopback`,
 * `linklocal` and `uniquelocal` (the ranges Fastify knows by those names).
 *
 * @throws {ConfigError} for `true` (it would believe whatever `X-Forwarded-For` a client writes), `0`, and
 *   anything else, with a message saying what to write.
 */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  if (text === undefined || text === 'false') return false;
  if (text === 'true') {
    throw new ConfigError(
      `TRUST_PROXY=true trusts any X-Forwarded-For a client writes, so every per-IP limit could be dodged; ${TRUST_PROXY_USAGE}.`,
    );
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (!Number.isSafeInteger(hops) || hops < 1 || hops > 100) {
      throw new ConfigError(
        `TRUST_PROXY must be false, a number of proxies from 1 to 100, or proxy addresses, not ${JSON.stringify(text)}: ${TRUST_PROXY_USAGE}.`,
      );
    }
    return hops;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isProxyAddress(entry)) {
      throw new ConfigError(
        `TRUST_PROXY has ${JSON.stringify(entry)}, which is neither an IP address nor a CIDR range: ${TRUST_PROXY_USAGE}.`,
      );
    }
  }
  return Object.freeze(entries);
}

/** An IP address, a CIDR range with a prefix length that fits its family, or one of proxy-addr's names. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // A range as wide as /0 (or anything wider than a /8) trusts what clients write, as `true` would: the
  // addresses of one's own proxies are never that many (the widest private ranges are 10.0.0.0/8, fd00::/8).
  const [shortest, longest] = family === 4 ? [8, 32] : [8, 128];
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= shortest && Number(prefix) <= longest;
}
