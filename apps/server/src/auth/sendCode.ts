import { DialError } from '@dial/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../appContext.js';
import { createMessageText, createReauthMessageText, DeliveryError } from '../delivery/index.js';
import {
  type CodeTarget,
  cooldownRemaining,
  discardCode,
  generateCode,
  hashCode,
  storeCode,
} from './otpCodes.js';

/** Where a code is delivered, and under which target it is stored and checked. */
export interface CodeDelivery {
  /** The channel and the E.164 number or e-mail address the message goes to. */
  to: CodeTarget;
  /**
   * The target the code is stored and hashed under; `to` by default. Re-authentication stores its codes
   * apart (`reauth:<identifier>`), so a re-authentication code never signs anyone in and a sign-in code
   * never re-authenticates.
   */
  storedAs?: CodeTarget;
  /** What the code is for, which picks the message's wording: `sign-in` (the default) or `reauth`. */
  purpose?: 'sign-in' | 'reauth';
}

/**
 * Sends a new one-time code, with the sign-in limits: `startsPerIp` for the client address, the resend
 * cooldown of the stored target, and `codesPerIdentifier` for the number or address it goes to (shared by
 * sign-in and re-authentication codes, so together they never send more). A code that could not be
 * delivered is discarded, so the person can retry at once.
 *
 * @throws {DialError} `invalid_data` when the channel has no transport, `too_many_requests`,
 *   `delivery_failed`.
 */
export async function sendCode(
  ctx: AppContext,
  delivery: CodeDelivery,
  request: { ip: string; log: FastifyBaseLogger },
  unavailableMessage: string,
): Promise<void> {
  const policy = ctx.config.otp;
  const { to } = delivery;
  const stored = delivery.storedAs ?? to;
  const transport = ctx.transports[to.channel];
  if (transport === undefined) throw new DialError('invalid_data', { message: unavailableMessage });

  const now = ctx.now();
  await ctx.rateLimiter.consume(`otp-start:ip:${request.ip}`, policy.startsPerIp, now);
  // Checked before the hourly count, so asking again too early does not use up the hour's codes.
  const wait = await cooldownRemaining(ctx.db, stored, now, policy.resendCooldownSeconds);
  if (wait > 0) throw new DialError('too_many_requests', { retryAfterSeconds: wait, details: 'cooldown' });
  await ctx.rateLimiter.consume(`otp-codes:${to.channel}:${to.identifier}`, policy.codesPerIdentifier, now);

  const code = generateCode();
  const codeHash = hashCode(ctx.keys.otp, stored, code);
  const isStored = await storeCode(ctx.db, stored, codeHash, {
    now,
    ttlSeconds: policy.codeTtlSeconds,
    cooldownSeconds: policy.resendCooldownSeconds,
  });
  if (!isStored) {
    // A concurrent request stored a code between the check above and this one.
    const retryAfterSeconds = Math.max(
      1,
      await cooldownRemaining(ctx.db, stored, now, policy.resendCooldownSeconds),
    );
    throw new DialError('too_many_requests', { retryAfterSeconds, details: 'cooldown' });
  }

  const write = delivery.purpose === 'reauth' ? createReauthMessageText : createMessageText;
  const { subject, text } = write(to.channel, code);
  try {
    await transport.send({ channel: to.channel, to: to.identifier, subject, text, code });
  } catch (error) {
    // A code nobody received must not hold the cooldown: the person can retry at once.
    await discardCode(ctx.db, stored, codeHash);
    if (error instanceof DeliveryError) {
      request.log.warn({ transport: transport.name, reason: error.message }, 'code delivery failed');
      throw new DialError('delivery_failed', { cause: error, details: error.message });
    }
    throw error;
  }
}
