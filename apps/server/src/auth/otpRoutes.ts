import { otpStartRoute, otpVerifyRoute } from '@dial/api';
import { CHANNEL_METHOD_KIND, type Channel } from '@dial/core';
import type { AppContext } from '../appContext.js';
import { deriveKey } from '../crypto/deriveKey.js';
import type { TypedApp } from '../http/typedApp.js';
import { checkCode } from './checkCode.js';
import { signInBudget } from './codeBudgets.js';
import { deviceHashOf, ensureDevice } from './devices.js';
import { normalizeTarget } from './normalizeTarget.js';
import type { CodeSlot } from './otpCodes.js';
import { proofKeysFrom } from './proofOfWork.js';
import { codeSentAnswer, sendCode } from './sendCode.js';
import { startSignedInSession } from './startSignedInSession.js';
import { findOrCreateUser } from './users.js';

/** What a channel without a provider answers in production (400 `invalid_data` with this message). */
const UNAVAILABLE: Record<Channel, string> = {
  sms: 'SMS sign-in is not available on this server. Sign in with an e-mail address instead.',
  email: 'E-mail sign-in is not available on this server. Sign in with a phone number instead.',
};

/**
 * `POST /api/auth/otp/start` sends a one-time code; `POST /api/auth/otp/verify` checks it and signs in.
 *
 * A code is bound to the browser that asked for it (its `dial_device` cookie, set by `start` when it has
 * none): another browser's requests neither replace it nor spend its tries, and `verify` checks only the
 * code of the browser that sends it. How many codes a number or address gets is in {@link signInBudget}.
 *
 * Neither answer tells whether an account exists: `start` treats a browser that never signed in to the
 * account the same as one for an address without an account, and the allowlist and the user cap are
 * checked by `verify` only after the code has been proven right (so only the owner of the number or address
 * learns that they may not sign up).
 */
export function registerOtpRoutes(app: TypedApp, ctx: AppContext): void {
  const policy = ctx.config.otp;
  const proofKeys = proofKeysFrom(deriveKey(ctx.config.shareEncryptionKey, 'dial/proof-of-work'));

  app.post(
    otpStartRoute.url,
    {
      schema: otpStartRoute.schema,
    },
    async (request, reply) => {
      const { channel, to, proof } = request.body;
      const target = normalizeTarget(channel, to);
      const slot: CodeSlot = { purpose: 'sign-in', ...target, deviceHash: ensureDevice(request, reply, ctx) };
      await sendCode(
        ctx,
        { slot, consumeBudget: signInBudget(ctx, slot, proof, proofKeys) },
        request,
        UNAVAILABLE[channel],
      );
      return codeSentAnswer(slot, policy);
    },
  );

  app.post(
    otpVerifyRoute.url,
    {
      schema: otpVerifyRoute.schema,
    },
    async (request, reply) => {
      const { channel, to, code } = request.body;
      const target = normalizeTarget(channel, to);
      // No device cookie: only a code asked for before the upgrade (stored without a browser) can match.
      const slot: CodeSlot = { purpose: 'sign-in', ...target, deviceHash: deviceHashOf(request) ?? '' };
      await checkCode(ctx, request, slot, code);
      const now = ctx.now();
      const kind = CHANNEL_METHOD_KIND[channel];
      const { user, isNewUser } = await findOrCreateUser(
        ctx.db,
        { kind, value: target.identifier },
        { allowlist: ctx.config.allowlist, maxUsers: ctx.config.maxUsers },
        now,
      );
      await startSignedInSession(request, reply, ctx, {
        user,
        isNewUser,
        method: kind,
        identifier: target.identifier,
      });
      return { user, isNewUser };
    },
  );
}
