import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../appContext.js';
import { rateKey } from '../config/rateKey.js';
import { ipSubject } from '../rateLimit/ipSubject.js';
import { type CodeSlot, consumeCode } from './otpCodes.js';

/**
 * Checks a one-time code the way every code route does: the request's IP and the code's slot (purpose,
 * channel, number or address, browser) each spend a verify try (`otpVerifiesPerIp`,
 * `otpVerifiesPerDevice`), then the code is consumed (right: deleted; wrong: a try counted).
 *
 * @throws {DialError} `too_many_requests`, `invalid_code`, `code_expired`, `code_attempts_exceeded`.
 */
export async function checkCode(
  ctx: AppContext,
  request: FastifyRequest,
  slot: CodeSlot,
  code: string,
): Promise<void> {
  const now = ctx.now();
  await ctx.rateLimiter.consume(
    rateKey('otpVerifiesPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
    ctx.config.rateLimits.otpVerifiesPerIp,
    now,
  );
  await ctx.rateLimiter.consume(
    rateKey('otpVerifiesPerDevice', slot.purpose, slot.channel, slot.identifier, slot.deviceHash),
    ctx.config.rateLimits.otpVerifiesPerDevice,
    now,
  );
  await consumeCode(ctx.db, slot, code, {
    otpKey: ctx.keys.otp,
    now,
    maxAttempts: ctx.config.otp.maxAttempts,
  });
}
