import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../appContext.js';
import type { Database } from '../db/database.js';
import { KNOWN_DEVICE_RETENTION_SECONDS } from '../db/sweepExpiredRows.js';
import type { CookieOptions } from '../http/cookies.js';
import { hashToken, MAX_USER_AGENT_LENGTH } from './sessions.js';

/**
 * The device cookie's name: a long-lived random token that tells this browser apart from others. Codes are
 * bound to it, and a user's known browsers are recorded by its hash.
 */
export const DEVICE_COOKIE = 'dial_device';
/** The device cookie lives as long as a browser unseen is known (a year), renewed at every sign-in. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = KNOWN_DEVICE_RETENTION_SECONDS;
/** Only the sign-in and re-authentication routes read it, so the browser sends it nowhere else. */
const DEVICE_COOKIE_PATH = '/api/auth';
/** 32 bytes in base64url, no padding. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The device cookie's attributes: HttpOnly, SameSite=Strict, Path=/api/auth, a year, Secure in production. */
export function deviceCookieOptions(ctx: Pick<AppContext, 'config'>): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    path: DEVICE_COOKIE_PATH,
    secure: ctx.config.environment === 'production',
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  };
}

/**
 * The SHA-256 (hex) of the request's device cookie; `undefined` when the request has none, or one that is
 * not a token this server could have set.
 */
export function deviceHashOf(request: FastifyRequest): string | undefined {
  const token = request.cookies[DEVICE_COOKIE];
  return token !== undefined && TOKEN_PATTERN.test(token) ? hashToken(token) : undefined;
}

/**
 * The request's device (the hash of its device cookie). A browser without one gets a new random token in a
 * cookie on this answer; a browser with one gets it again with a fresh year, so a browser in use stays known.
 */
export function ensureDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: Pick<AppContext, 'config'>,
): string {
  const current = request.cookies[DEVICE_COOKIE];
  const token =
    current !== undefined && TOKEN_PATTERN.test(current) ? current : randomBytes(32).toString('base64url');
  reply.setCookie(DEVICE_COOKIE, token, deviceCookieOptions(ctx));
  return hashToken(token);
}

/**
 * Whether the account that owns a phone number or e-mail address has signed in from this browser before.
 * For an address without an account it is `false`, exactly as for a browser the account has not used, so
 * the answer tells nothing to a browser that has never signed in to it.
 */
export async function isKnownDevice(
  db: Kysely<Database>,
  identifier: string,
  deviceHash: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('known_devices')
    .innerJoin('identities', 'identities.user_id', 'known_devices.user_id')
    .select('known_devices.user_id')
    .where('identities.value', '=', identifier)
    .where('known_devices.device_hash', '=', deviceHash)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records that a user signed in from this browser now.
 *
 * @returns whether the browser was new to the user.
 */
export async function rememberDevice(
  db: Kysely<Database>,
  userId: string,
  deviceHash: string,
  now: Date,
  userAgent?: string | undefined,
): Promise<{ isNewDevice: boolean }> {
  const at = now.toISOString();
  const agent = userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null;
  const inserted = await db
    .insertInto('known_devices')
    .values({
      user_id: userId,
      device_hash: deviceHash,
      id: randomUUID(),
      user_agent: agent,
      created_at: at,
      last_seen_at: at,
    })
    .onConflict((conflict) => conflict.columns(['user_id', 'device_hash']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  if (inserted !== undefined) return { isNewDevice: true };
  await db
    .updateTable('known_devices')
    .set({ last_seen_at: at, user_agent: agent })
    .where('user_id', '=', userId)
    .where('device_hash', '=', deviceHash)
    .execute();
  return { isNewDevice: false };
}
