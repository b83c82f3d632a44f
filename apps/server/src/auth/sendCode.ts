import { type Channel, DialError } from '@dial/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../appContext.js';
import type { OtpPolicy } from '../config/otpPolicy.js';
import { rateKey } from '../config/rateKey.js';
import {
  createLinkMessageText,
  createMessageText,
  createReauthMessageText,
  DeliveryError,
} from '../delivery/index.js';
import { ipSubject } from '../rateLimit/ipSubject.js';
import {
  type CodePurpose,
  type CodeSlot,
  cooldownRemaining,
  discardCode,
  generateCode,
  hashCode,
  storeCode,
} from './otpCodes.js';

/** The wording of a code, by what it is for. */
const WRITE_CODE: Record<
  CodePurpose,
  (channel: Channel, code: string, codeTtlSeconds: number) => { subject: string; text: string }
> = { 'sign-in': createMessageText, reauth: createReauthMessageText, link: createLinkMessageText };

/** A code to send: the slot it is kept in (purpose, channel, number or address, browser). */
export interface CodeDelivery {
  slot: CodeSlot;
  /**
   * Counts this code against the budgets of its purpose and browser, once the cooldown has let it through
   * (so asking again too early uses up nothing); throws to refuse it.
   */
  consumeBudget(now: Date): Promise<void>;
}

/**
 * Sends a new one-time code: `startsPerIp` for the client address, the resend cooldown of the slot, the
 * caller's budgets, then a fresh code stored (as its HMAC) in the slot and delivered. Asking again within the
 * cooldown is not abuse (a reload, a second tab): it answers `code_recently_sent` with the wait left (the code
 * this browser got works until it expires), and uses up nothing. The code goes to the
 * slot's number or address; its wording depends on its purpose. A code that could not be delivered is
 * discarded, so the person can retry at once.
 *
 * @throws {DialError} `invalid_data` when the channel has no transport, `too_many_requests`,
 *   `code_recently_sent` (with `retryAfterSeconds`), `delivery_failed`, and whatever `consumeBudget` throws (`proof_of_work_required`).
 */
export async function sendCode(
  ctx: AppContext,
  delivery: CodeDelivery,
  request: { ip: string; log: FastifyBaseLogger },
  unavailableMessage: string,
): Promise<void> {
  const policy = ctx.config.otp;
  const { slot } = delivery;
  const transport = ctx.transports[slot.channel];
  if (transport === undefined) throw new DialError('invalid_data', { message: unavailableMessage });

  const now = ctx.now();
  await ctx.rateLimiter.consume(
    rateKey('otpStartsPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
    ctx.config.rateLimits.otpStartsPerIp,
    now,
  );
  // Checked before the budgets, so asking again too early does not use up the hour's codes.
  const wait = await cooldownRemaining(ctx.db, slot, now, policy.resendCooldownSeconds);
  if (wait > 0) throw new DialError('code_recently_sent', { retryAfterSeconds: wait });
  await delivery.consumeBudget(now);

  const code = generateCode();
  const codeHash = hashCode(ctx.keys.otp, slot, code);
  const isStored = await storeCode(ctx.db, slot, codeHash, {
    now,
    ttlSeconds: policy.codeTtlSeconds,
    cooldownSeconds: policy.resendCooldownSeconds,
  });
  if (!isStored) {
    // A concurrent request from the same browser stored a code between the check above and this one.
    const retryAfterSeconds = Math.max(
      1,
      await cooldownRemaining(ctx.db, slot, now, policy.resendCooldownSeconds),
    );
    throw new DialError('code_recently_sent', { retryAfterSeconds });
  }

  const { subject, text } = WRITE_CODE[slot.purpose](slot.channel, code, policy.codeTtlSeconds);
  try {
    await transport.send({ channel: slot.channel, to: slot.identifier, subject, text, code });
  } catch (error) {
    // A code nobody received must not hold the cooldown: the person can retry at once.
    await discardCode(ctx.db, slot, codeHash);
    if (error instanceof DeliveryError) {
      request.log.warn({ transport: transport.name, reason: error.message }, 'code delivery failed');
      throw new DialError('delivery_failed', { cause: error, details: error.message });
    }
    throw error;
  }
}

/**
 * What a route that sent a code answers: where it went (send it back as is to verify), and when another may
 * be asked for and this one expires.
 */
export function codeSentAnswer(
  slot: CodeSlot,
  policy: Pick<OtpPolicy, 'resendCooldownSeconds' | 'codeTtlSeconds'>,
) {
  return {
    ok: true as const,
    channel: slot.channel,
    to: slot.identifier,
    resendAfterSeconds: policy.resendCooldownSeconds,
    expiresInSeconds: policy.codeTtlSeconds,
  };
}
