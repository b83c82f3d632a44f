import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { type Channel, DialError, OTP_CODE_LENGTH, SECOND_MS } from '@dial/core';
import type { Kysely } from 'kysely';
import type { CodePurpose, Database } from '../db/database.js';

export type { CodePurpose };

/** A channel and the normalised number or address on it: an E.164 number or an e-mail address, nothing else. */
export interface CodeTarget {
  channel: Channel;
  /** E.164 or the normalised e-mail address. */
  identifier: string;
}

/**
 * Where one code is kept: its purpose, where it goes, and the browser that asked for it (the SHA-256 of its
 * `dial_device` cookie). Each browser has a code of its own, so another browser's requests and wrong tries
 * never replace or burn it. `deviceHash` is '' only for codes stored before migration 0006.
 */
export interface CodeSlot extends CodeTarget {
  purpose: CodePurpose;
  deviceHash: string;
}

/** Makes a one-time code of `OTP_CODE_LENGTH` digits with the CSPRNG, every value equally likely. */
export function generateCode(): string {
  return String(randomInt(0, 10 ** OTP_CODE_LENGTH)).padStart(OTP_CODE_LENGTH, '0');
}

/**
 * The value stored for a code: HMAC-SHA256 under the OTP key of purpose, channel, identifier, browser and
 * code, hex. Binding all of them means a stolen row cannot be replayed for another purpose, number or
 * browser, and without the key the 10⁶ possible codes cannot be tried offline.
 *
 * A code stored before migration 0006 (`deviceHash` '') was hashed without purpose and browser, with
 * re-authentication codes under `reauth:<identifier>`: it is checked with that input, so it keeps working
 * for the minutes it has left. Link codes are newer than that and always bound to a browser: they are
 * never hashed without their purpose.
 */
export function hashCode(otpKey: Uint8Array, slot: CodeSlot, code: string): string {
  const input =
    slot.deviceHash === '' && slot.purpose !== 'link'
      ? `${slot.channel}\n${slot.purpose === 'reauth' ? 'reauth:' : ''}${slot.identifier}\n${code}`
      : `${slot.purpose}\n${slot.channel}\n${slot.identifier}\n${slot.deviceHash}\n${code}`;
  return createHmac('sha256', otpKey).update(input, 'utf8').digest('hex');
}

/** The `where` conditions that select one slot's row. */
function slotConditions(slot: CodeSlot) {
  return {
    purpose: slot.purpose,
    channel: slot.channel,
    identifier: slot.identifier,
    device_hash: slot.deviceHash,
  } as const;
}

/**
 * Stores a new code in a slot, replacing the slot's previous code (whose tries start over), unless that one
 * is younger than the resend cooldown. One atomic upsert, so two concurrent requests cannot both pass the
 * cooldown. Other browsers' codes for the same number are separate slots and are left alone.
 *
 * @returns `true` when stored; `false` when the cooldown refused it.
 */
export async function storeCode(
  db: Kysely<Database>,
  slot: CodeSlot,
  codeHash: string,
  options: { now: Date; ttlSeconds: number; cooldownSeconds: number },
): Promise<boolean> {
  const { now, ttlSeconds, cooldownSeconds } = options;
  const createdAt = now.toISOString();
  const cooldownCutoff = new Date(now.getTime() - cooldownSeconds * SECOND_MS).toISOString();
  const stored = await db
    .insertInto('otp_codes')
    .values({
      ...slotConditions(slot),
      code_hash: codeHash,
      expires_at: new Date(now.getTime() + ttlSeconds * SECOND_MS).toISOString(),
      attempts: 0,
      created_at: createdAt,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['purpose', 'channel', 'identifier', 'device_hash'])
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
 * Seconds until a new code may be stored in the slot: 0 when it may be now, else at least 1 (the slot's code
 * is younger than the cooldown).
 */
export async function cooldownRemaining(
  db: Kysely<Database>,
  slot: CodeSlot,
  now: Date,
  cooldownSeconds: number,
): Promise<number> {
  const { purpose, channel, identifier, device_hash } = slotConditions(slot);
  const row = await db
    .selectFrom('otp_codes')
    .select('created_at')
    .where('purpose', '=', purpose)
    .where('channel', '=', channel)
    .where('identifier', '=', identifier)
    .where('device_hash', '=', device_hash)
    .executeTakeFirst();
  if (row === undefined) return 0;
  const remainingMs = Date.parse(row.created_at) + cooldownSeconds * SECOND_MS - now.getTime();
  return remainingMs <= 0 ? 0 : Math.max(1, Math.ceil(remainingMs / 1000));
}

/** Deletes the slot's code if it is still the one with this hash (not one a later request stored). */
export async function discardCode(db: Kysely<Database>, slot: CodeSlot, codeHash: string): Promise<void> {
  const { purpose, channel, identifier, device_hash } = slotConditions(slot);
  await db
    .deleteFrom('otp_codes')
    .where('purpose', '=', purpose)
    .where('channel', '=', channel)
    .where('identifier', '=', identifier)
    .where('device_hash', '=', device_hash)
    .where('code_hash', '=', codeHash)
    .execute();
}

/**
 * Checks a code against the code of one slot (the purpose, the number or address, and the browser asking)
 * and, when it is right, uses it up. Throws, from the catalogue:
 * - `code_expired` when the slot has no code, it has expired, or it was used (by a concurrent request too);
 * - `code_attempts_exceeded` when this is the `maxAttempts`-th wrong try or later, whatever the code;
 * - `invalid_code` for an earlier wrong try.
 *
 * Every step that changes the row is one conditional statement, so concurrent tries cannot exceed the
 * limit and a code cannot be used twice.
 */
export async function consumeCode(
  db: Kysely<Database>,
  slot: CodeSlot,
  code: string,
  options: { otpKey: Uint8Array; now: Date; maxAttempts: number },
): Promise<void> {
  const { otpKey, now, maxAttempts } = options;
  const nowIso = now.toISOString();
  const { purpose, channel, identifier, device_hash } = slotConditions(slot);
  const row = await db
    .selectFrom('otp_codes')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('channel', '=', channel)
    .where('identifier', '=', identifier)
    .where('device_hash', '=', device_hash)
    .executeTakeFirst();
  if (row === undefined) throw new DialError('code_expired', { details: 'no code' });
  if (row.expires_at <= nowIso) {
    await discardCode(db, slot, row.code_hash);
    throw new DialError('code_expired');
  }
  if (row.attempts >= maxAttempts) throw new DialError('code_attempts_exceeded');

  const given = Buffer.from(hashCode(otpKey, slot, code), 'hex');
  const stored = Buffer.from(row.code_hash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) {
    const counted = await db
      .updateTable('otp_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('purpose', '=', purpose)
      .where('channel', '=', channel)
      .where('identifier', '=', identifier)
      .where('device_hash', '=', device_hash)
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
    .where('purpose', '=', purpose)
    .where('channel', '=', channel)
    .where('identifier', '=', identifier)
    .where('device_hash', '=', device_hash)
    .where('code_hash', '=', row.code_hash)
    .where('attempts', '<', maxAttempts)
    .where('expires_at', '>', nowIso)
    .returning('channel')
    .executeTakeFirst();
  if (used === undefined) throw new DialError('code_expired', { details: 'used concurrently' });
}
