import { reauthStartRoute, reauthVerifyRoute } from '@dial/api';
import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';
import { checkCode } from './checkCode.js';
import { reauthBudget } from './codeBudgets.js';
import { deviceHashOf, ensureDevice } from './devices.js';
import type { CodeSlot } from './otpCodes.js';
import {
  markReauthenticated,
  REAUTH_VALID_SECONDS,
  reauthTarget,
  sessionHashOf,
} from './reauthentication.js';
import { sendCode } from './sendCode.js';

const UNAVAILABLE = 'Codes cannot be sent to your phone number or e-mail address on this server just now.';

/**
 * `POST /api/auth/reauth/start` sends a fresh one-time code to the signed-in user's own phone (or e-mail
 * when they have no phone); `POST /api/auth/reauth/verify` checks it and opens sensitive actions (export)
 * to this session for {@link REAUTH_VALID_SECONDS} seconds. Same codes and transports as sign-in, but kept
 * under purpose `reauth`, with budgets and verify limits of their own: a re-authentication code cannot sign
 * in, a sign-in code cannot re-authenticate, and the sign-in routes (open to anyone) cannot read, spend or
 * replace a re-authentication code. Like sign-in codes, each is bound to the browser that asked for it.
 */
export function registerReauthRoutes(app: TypedApp, ctx: AppContext): void {
  const policy = ctx.config.otp;

  app.post(
    reauthStartRoute.url,
    {
      preHandler: app.requireUser,
      schema: reauthStartRoute.schema,
    },
    async (request, reply) => {
      const user = request.user!;
      const slot: CodeSlot = {
        purpose: 'reauth',
        ...reauthTarget(user),
        deviceHash: ensureDevice(request, reply, ctx),
      };
      await sendCode(ctx, { slot, consumeBudget: reauthBudget(ctx, user.id) }, request, UNAVAILABLE);
      return {
        ok: true as const,
        channel: slot.channel,
        resendAfterSeconds: policy.resendCooldownSeconds,
        expiresInSeconds: policy.codeTtlSeconds,
      };
    },
  );

  app.post(
    reauthVerifyRoute.url,
    {
      preHandler: app.requireUser,
      schema: reauthVerifyRoute.schema,
    },
    async (request) => {
      const slot: CodeSlot = {
        purpose: 'reauth',
        ...reauthTarget(request.user!),
        deviceHash: deviceHashOf(request) ?? '',
      };
      await checkCode(ctx, request, slot, request.body.code);
      const now = ctx.now();
      const until = await markReauthenticated(ctx.db, sessionHashOf(request), now);
      return { reauthenticatedUntil: until.toISOString() };
    },
  );
}
