import {
  linkCodeStartRoute,
  linkCodeVerifyRoute,
  listMethodsRoute,
  removeMethodRoute,
  updateMethodRoute,
  useWalletRoute,
} from '@dial/api';
import { CHANNEL_METHOD_KIND, type Channel, DialError } from '@dial/core';
import { answerChange, changeAccount, ownMethod } from '../accountChanges/changeAccount.js';
import type { AppContext } from '../appContext.js';
import { checkCode } from '../auth/checkCode.js';
import { linkBudget } from '../auth/codeBudgets.js';
import { deviceHashOf, ensureDevice } from '../auth/devices.js';
import { selectMethodRows, toSignInMethod } from '../auth/linkMethod.js';
import { normalizeTarget } from '../auth/normalizeTarget.js';
import type { CodeSlot } from '../auth/otpCodes.js';
import { codeSentAnswer, sendCode } from '../auth/sendCode.js';
import type { TypedApp } from '../http/typedApp.js';

/** What a channel without a provider answers (400 `invalid_data` with this message). */
const UNAVAILABLE: Record<Channel, string> = {
  sms: 'Codes cannot be sent by SMS on this server, so a phone number cannot be linked here.',
  email: 'Codes cannot be sent by e-mail on this server, so an e-mail address cannot be linked here.',
};

/**
 * The signed-in person's sign-in methods (`/api/auth/methods…`, except the wallet routes of SIWE linking):
 * the list, linking a phone number or e-mail address by a one-time code, a phone number's findability, and
 * unlinking.
 *
 * Linking by code: `POST /api/auth/methods/code` refuses at once what the person can already know (the value
 * is already theirs, or they have `MAX_SIGN_IN_METHODS`) and sends a code of purpose `link`, bound to this
 * browser like a sign-in code, counted against budgets of its own ({@link linkBudget}). Whether the value
 * belongs to another account is checked only by `…/code/verify`, after the code is proven, so the route does
 * not tell anyone who has an account: only the owner of the number or address learns it is taken.
 *
 * Every change (linking, unlinking, findability, making a wallet the account's) goes through
 * {@link changeAccount}: made at once with the account key's proof, else asked for and made after the
 * cooling-off period. Every route acts on the session's own user only: another user's method id answers
 * `404 not_found`, as one that does not exist.
 */
export function registerMethodRoutes(app: TypedApp, ctx: AppContext): void {
  const policy = ctx.config.otp;

  app.get(
    listMethodsRoute.url,
    { preHandler: app.requireUser, schema: listMethodsRoute.schema },
    async (request) => {
      const rows = await selectMethodRows(ctx.db)
        .where('identities.user_id', '=', request.user!.id)
        .orderBy('identities.created_at')
        .orderBy('identities.value')
        .execute();
      return {
        methods: rows.map((row) =>
          toSignInMethod({ ...row, findable: Number(row.findable), trusted: Number(row.trusted) }),
        ),
        maxMethods: ctx.config.maxSignInMethods,
      };
    },
  );

  app.post(
    linkCodeStartRoute.url,
    { preHandler: app.requireUser, schema: linkCodeStartRoute.schema },
    async (request, reply) => {
      const user = request.user!;
      const { channel, to } = request.body;
      const target = normalizeTarget(channel, to);
      // What the person may know already: their own methods. Another account's is told only after the code.
      const own = await ctx.db
        .selectFrom('identities')
        .select('value')
        .where('user_id', '=', user.id)
        .execute();
      if (own.some((method) => method.value === target.identifier)) {
        throw new DialError('method_already_linked');
      }
      if (own.length >= ctx.config.maxSignInMethods) throw new DialError('methods_limit_reached');

      const slot: CodeSlot = { purpose: 'link', ...target, deviceHash: ensureDevice(request, reply, ctx) };
      await sendCode(
        ctx,
        { slot, consumeBudget: linkBudget(ctx, user.id, slot) },
        request,
        UNAVAILABLE[channel],
      );
      return codeSentAnswer(slot, policy);
    },
  );

  app.post(
    linkCodeVerifyRoute.url,
    { preHandler: app.requireUser, schema: linkCodeVerifyRoute.schema },
    async (request, reply) => {
      const { channel, to, code, proof } = request.body;
      const target = normalizeTarget(channel, to);
      // Link codes are always bound to a browser: without a device cookie no code matches.
      const slot: CodeSlot = { purpose: 'link', ...target, deviceHash: deviceHashOf(request) ?? '' };
      await checkCode(ctx, request, slot, code);
      // The code proves the new number or address; only the account's key proves the account's owner wants it.
      const outcome = await changeAccount(
        ctx,
        request,
        { action: 'link-method', kind: CHANNEL_METHOD_KIND[channel], value: target.identifier },
        proof,
      );
      return answerChange(reply, outcome, (applied) => ({ method: applied }));
    },
  );

  app.patch(
    updateMethodRoute.url,
    { preHandler: app.requireUser, schema: updateMethodRoute.schema },
    async (request, reply) => {
      const { findable, proof } = request.body;
      const id = request.params.id;
      const outcome = await changeAccount(ctx, request, { action: 'set-findable', id, findable }, proof);
      return answerChange(reply, outcome, async () => ({
        method: await ownMethodAnswer(ctx, request.user!.id, id),
      }));
    },
  );

  app.post(
    removeMethodRoute.url,
    { preHandler: app.requireUser, schema: removeMethodRoute.schema },
    async (request, reply) => {
      const outcome = await changeAccount(
        ctx,
        request,
        { action: 'remove-method', id: request.params.id },
        request.body.proof,
      );
      return answerChange(reply, outcome, () => ({ ok: true as const }));
    },
  );

  app.post(
    useWalletRoute.url,
    { preHandler: app.requireUser, schema: useWalletRoute.schema },
    async (request, reply) => {
      const id = request.params.id;
      const outcome = await changeAccount(ctx, request, { action: 'use-wallet', id }, request.body.proof);
      return answerChange(reply, outcome, async () => ({
        method: await ownMethodAnswer(ctx, request.user!.id, id),
      }));
    },
  );
}

/** One of the user's sign-in methods, as its owner sees it. */
async function ownMethodAnswer(ctx: AppContext, userId: string, id: string) {
  const row = await ownMethod(ctx.db, userId, id);
  return toSignInMethod({ ...row, findable: Number(row.findable), trusted: Number(row.trusted) });
}
