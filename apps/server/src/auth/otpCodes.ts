import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { DialError } from '@dial/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Channel } from '../delivery/index.js';

/** A code's channel and the normalised number or address it was sent to. */
export interface CodeTarget {
  channel: Channel;
  /** E.164 or the normalised e-mail address. */
  identifier: string;
}

/** Makes a 6-digit one-time code with the CSPRNG, every value from 000000 to 999999 equally likely. */
export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The value stored for a code: HMAC-SHA256 under the OTP key of channel, identifier and code, hex. Binding
 * the channel and identifier means a stolen row cannot be replayed for another number, and without the key
 * the 10⁶ possible codes cannot be tried offline.
 */
export function hashCode(otpKey: Uint8Array, target: CodeTarget, code: string): string {
  return createHmac('sha256', otpKey)
    .update(`${target.channel}\n${target.identifier}\n${code}`, 'utf8')
    .digest('hex');
}

/**
 * Stores a new code for a target, replacing the previous one (whose tries start over), unless the previous
 * one is younger than the resend cooldown. One atomic upsert, so two concurrent requests cannot both pass
 * the cooldown.
 *
 * @returns `true` when stored; `false` when the cooldown refused it.
 */
export async function storeCode(
  db: Kysely<Database>,
  target: CodeTarget,
  codeHash: string,
  options: { now: Date; ttlSeconds: number; cooldownSeconds: number },
): Promise<boolean> {
  const { now, ttlSeconds, cooldownSeconds } = options;
  const createdAt = now.toISOString();
  const cooldownCutoff = new Date(now.getTime() - cooldownSeconds * 1000).toISOString();
  const stored = await db
    .insertInto('otp_codes')
    .values({
      channel: target.channel,
      identifier: target.identifier,
      code_hash: codeHash,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
      attempts: 0,
      created_at: createdAt,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['channel', 'identifier'])
        .doUpdateSet((eb) => ({
          code_hash: eb.ref('excluded.code_hash'),
          expires_at: eb.ref('excluded.expires_at'),
          attempts: 0,
          created_at: eb.ref('excluded.created_at'),
        }))
        .where('otp_codes.created_at', '<=', cooldownCutoff),
    )
    .returning('channel')
    .executeTakeFirst();
  return stored !== undefined;
}

/**
 * Seconds until a new code may be sent to the target: 0 when it may be sent now, else at least 1 (the
 * previous code is younger than the cooldown).
 */
export async function cooldownRemaining(
  db: Kysely<Database>,
  target: CodeTarget,
  now: Date,
  cooldownSeconds: number,
): Promise<number> {
  const row = await db
    .selectFrom('otp_codes')
    .select('created_at')
    .where('channel', '=', target.channel)
    .where('identifier', '=', target.identifier)
    .executeTakeFirst();
  if (row === undefined) return 0;
  const remainingMs = Date.parse(row.created_at) + cooldownSeconds * 1000 - now.getTime();
  return remainingMs <= 0 ? 0 : Math.max(1, Math.ceil(remainingMs / 1000));
}

/** Deletes the target's code if it is still the one with this hash (not one a later request stored). */
export async function discardCode(db: Kysely<Database>, target: CodeTarget, codeHash: string): Promise<void> {
  await db
    .deleteFrom('otp_codes')
    .where('channel', '=', target.channel)
    .where('identifier', '=', target.identifier)
    .where('code_hash', '=', codeHash)
    .execute();
}

/**
 * Checks a code and, when it is right, uses it up. Throws, from the catalogue:
 * - `code_expired` when there is no code, it has expired, or it was used (by a concurrent request too);
 * - `code_attempts_exceeded` when this is the `maxAttempts`-th wrong try or later, whatever the code;
 * - `invalid_code` for an earlier wrong try.
 *
 * Every step that changes the row is one conditional statement, so concurrent tries cannot exceed the
 * limit and a code cannot be used twice.
 */
export async function consumeCode(
  db: Kysely<Database>,
  target: CodeTarget,
  code: string,
  options: { otpKey: Uint8Array; now: Date; maxAttempts: number },
): Promise<void> {
  const { otpKey, now, maxAttempts } = options;
  const nowIso = now.toISOString();
  const byTarget = db
    .selectFrom('otp_codes')
    .selectAll()
    .where('channel', '=', target.channel)
    .where('identifier', '=', target.identifier);
  const row = await byTarget.executeTakeFirst();
  if (row === undefined) throw new DialError('code_expired', { details: 'no code' });
  if (row.expires_at <= nowIso) {
    await discardCode(db, target, row.code_hash);
    throw new DialError('code_expired');
  }
  if (row.attempts >= maxAttempts) throw new DialError('code_attempts_exceeded');

  const given = Buffer.from(hashCode(otpKey, target, code), 'hex');
  const stored = Buffer.from(row.code_hash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
    const counted = await db
      .updateTable('otp_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('channel', '=', target.channel)
      .where('identifier', '=', target.identifier)
      .where('code_hash', '=', row.code_hash)
      .where('attempts', '<', maxAttempts)
      .returning('attempts')
      .executeTakeFirst();
    // Nothing counted: concurrent tries used up the attempts, or a new code replaced this one.
    if (counted === undefined || counted.attempts >= maxAttempts)
      throw new DialError('code_attempts_exceeded');
    throw new DialError('invalid_code');
  }

  const used = await db
    .deleteFrom('otp_codes')
    .where('channel', '=', target.channel)
    .where('identifier', '=', target.identifier)
    .where('code_hash', '=', row.code_hash)
    .where('attempts', '<', maxAttempts)
    .where('expires_at', '>', nowIso)
    .returning('channel')
    .executeTakeFirst();
  if (used === undefined) throw new DialError('code_expired', { details: 'used concurrently' });
}
