import { Type } from 'typebox';
import type { AppContext } from '../appContext.js';
import type { Channel } from '../delivery/index.js';
import { ChannelSchema, errorResponses, UserSchema } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import { normalizeTarget } from './normalizeTarget.js';
import { consumeCode } from './otpCodes.js';
import { sendCode } from './sendCode.js';
import { createSession, endSession, SESSION_COOKIE, setSessionCookie } from './sessions.js';
import { findOrCreateUser } from './users.js';

/** What a channel without a provider answers in production (400 `invalid_data` with this message). */
const UNAVAILABLE: Record<Channel, string> = {
  sms: 'SMS sign-in is not available on this server. Sign in with an e-mail address instead.',
  email: 'E-mail sign-in is not available on this server. Sign in with a phone number instead.',
};

const ToSchema = Type.String({
  minLength: 1,
  maxLength: 320,
  description: 'A phone number in E.164 (`+447400123456`) for `sms`, an e-mail address for `email`.',
});

/**
 * `POST /api/auth/otp/start` sends a one-time code; `POST /api/auth/otp/verify` checks it and signs in.
 *
 * Neither answer tells whether an account exists: `start` never looks at accounts, and the allowlist and the
 * user cap are checked by `verify` only after the code has been proven right (so only the owner of the
 * number or address learns that they may not sign up).
 */
export function registerOtpRoutes(app: TypedApp, ctx: AppContext): void {
  const policy = ctx.config.otp;

  app.post(
    '/api/auth/otp/start',
    {
      schema: {
        tags: ['sign-in'],
        summary: 'Sends a one-time code by SMS or e-mail.',
        body: Type.Object({ channel: ChannelSchema, to: ToSchema }),
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            channel: ChannelSchema,
            to: Type.String({
              description: 'E.164 or the lower-case e-mail address: send it as is to verify.',
            }),
            resendAfterSeconds: Type.Integer(),
            expiresInSeconds: Type.Integer(),
          }),
          ...errorResponses(400, 403, 429, 502, 503),
        },
      },
    },
    async (request) => {
      const { channel, to } = request.body;
      const target = normalizeTarget(channel, to);
      await sendCode(ctx, { to: target }, request, UNAVAILABLE[channel]);
      return {
        ok: true as const,
        channel,
        to: target.identifier,
        resendAfterSeconds: policy.resendCooldownSeconds,
        expiresInSeconds: policy.codeTtlSeconds,
      };
    },
  );

  app.post(
    '/api/auth/otp/verify',
    {
      schema: {
        tags: ['sign-in'],
        summary: 'Checks a one-time code; when it is right, signs in (and signs up a new user).',
        body: Type.Object({
          channel: ChannelSchema,
          to: ToSchema,
          code: Type.String({ pattern: '^[0-9]{6}$', description: 'The 6-digit code.' }),
        }),
        response: {
          200: Type.Object({ user: UserSchema, isNewUser: Type.Boolean() }),
          ...errorResponses(400, 403, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const { channel, to, code } = request.body;
      const target = normalizeTarget(channel, to);
      const now = ctx.now();
      await ctx.rateLimiter.consume(`otp-verify:ip:${request.ip}`, policy.verifiesPerIp, now);
      await ctx.rateLimiter.consume(
        `otp-verify:${target.channel}:${target.identifier}`,
        policy.verifiesPerIdentifier,
        now,
      );
      await consumeCode(ctx.db, target, code, { otpKey: ctx.keys.otp, now, maxAttempts: policy.maxAttempts });

      const { user, isNewUser } = await findOrCreateUser(
        ctx.db,
        { kind: channel === 'sms' ? 'phone' : 'email', value: target.identifier },
        { allowlist: ctx.config.allowlist, maxUsers: ctx.config.maxUsers },
        now,
      );
      // Session fixation: whatever session cookie came with this request is ended, never adopted.
      const previous = request.cookies[SESSION_COOKIE];
      if (previous !== undefined) await endSession(ctx.db, previous);
      const { token, expiresAt } = await createSession(ctx.db, user.id, ctx.config.session, now);
      setSessionCookie(reply, ctx, token, expiresAt);
      return { user, isNewUser };
    },
  );
}
