/**
 * The time-to-live and tag each WalletConnect Sign message is published with, as the protocol's RPC
 * method specification lists them (and `@walletconnect/sign-client`'s `ENGINE_RPC_OPTS`,
 * `@walletconnect/core`'s `PAIRING_RPC_OPTS` carry them; a test keeps this table and the SDK in step).
 * The relay stand-in refuses a publish whose tag is not here or whose ttl is not the one its tag names.
 */
export interface PublishRule {
  /** The client-to-client method, and which message of it (`req`, `res`, `reject`, `autoReject`). */
  method: string;
  kind: 'req' | 'res' | 'reject' | 'autoReject';
  /** The ttl in seconds, or a range for a session request, whose ttl is the expiry the dapp asked for. */
  ttl: number | { min: number; max: number };
}

const ONE_DAY = 86_400;
const FIVE_MINUTES = 300;

/**
 * A session request's expiry, which is also the relay ttl it is published with: five minutes to seven days
 * (`SESSION_REQUEST_EXPIRY_BOUNDARIES`).
 */
export const SESSION_REQUEST_TTL = { min: 300, max: 604_800 } as const;

export const PUBLISH_RULES: Readonly<Record<number, PublishRule>> = {
  1000: { method: 'wc_pairingDelete', kind: 'req', ttl: ONE_DAY },
  1001: { method: 'wc_pairingDelete', kind: 'res', ttl: ONE_DAY },
  1002: { method: 'wc_pairingPing', kind: 'req', ttl: 30 },
  1003: { method: 'wc_pairingPing', kind: 'res', ttl: 30 },
  1100: { method: 'wc_sessionPropose', kind: 'req', ttl: FIVE_MINUTES },
  1101: { method: 'wc_sessionPropose', kind: 'res', ttl: FIVE_MINUTES },
  1120: { method: 'wc_sessionPropose', kind: 'reject', ttl: FIVE_MINUTES },
  1121: { method: 'wc_sessionPropose', kind: 'autoReject', ttl: FIVE_MINUTES },
  1102: { method: 'wc_sessionSettle', kind: 'req', ttl: FIVE_MINUTES },
  1103: { method: 'wc_sessionSettle', kind: 'res', ttl: FIVE_MINUTES },
  1104: { method: 'wc_sessionUpdate', kind: 'req', ttl: ONE_DAY },
  1105: { method: 'wc_sessionUpdate', kind: 'res', ttl: ONE_DAY },
  1106: { method: 'wc_sessionExtend', kind: 'req', ttl: ONE_DAY },
  1107: { method: 'wc_sessionExtend', kind: 'res', ttl: ONE_DAY },
  1108: { method: 'wc_sessionRequest', kind: 'req', ttl: SESSION_REQUEST_TTL },
  1109: { method: 'wc_sessionRequest', kind: 'res', ttl: 3 * FIVE_MINUTES },
  1110: { method: 'wc_sessionEvent', kind: 'req', ttl: FIVE_MINUTES },
  1111: { method: 'wc_sessionEvent', kind: 'res', ttl: FIVE_MINUTES },
  1112: { method: 'wc_sessionDelete', kind: 'req', ttl: ONE_DAY },
  1113: { method: 'wc_sessionDelete', kind: 'res', ttl: ONE_DAY },
  1114: { method: 'wc_sessionPing', kind: 'req', ttl: ONE_DAY },
  1115: { method: 'wc_sessionPing', kind: 'res', ttl: ONE_DAY },
  1116: { method: 'wc_sessionAuthenticate', kind: 'req', ttl: 3_600 },
  1117: { method: 'wc_sessionAuthenticate', kind: 'res', ttl: 3_600 },
  1118: { method: 'wc_sessionAuthenticate', kind: 'reject', ttl: FIVE_MINUTES },
  1119: { method: 'wc_sessionAuthenticate', kind: 'autoReject', ttl: FIVE_MINUTES },
};

/** The ttl of the relay's own session methods (`wc_proposeSession`, `wc_approveSession`): five minutes. */
export const SESSION_SETUP_TTL = FIVE_MINUTES;

/** Why a publish's tag and ttl break {@link PUBLISH_RULES}, or null when they keep them. */
export function checkPublishTtl(tag: unknown, ttl: unknown): string | null {
  if (!Number.isInteger(tag)) return 'tag must be an integer';
  const rule = PUBLISH_RULES[tag as number];
  if (rule === undefined) return `tag ${String(tag)} is no WalletConnect Sign message`;
  if (!Number.isInteger(ttl)) return 'ttl must be whole seconds';
  const seconds = ttl as number;
  if (typeof rule.ttl === 'number') {
    return seconds === rule.ttl ? null : `ttl ${seconds} for tag ${tag} (${rule.method}) is not ${rule.ttl}`;
  }
  return seconds >= rule.ttl.min && seconds <= rule.ttl.max
    ? null
    : `ttl ${seconds} for tag ${tag} (${rule.method}) is outside ${rule.ttl.min}–${rule.ttl.max}`;
}
