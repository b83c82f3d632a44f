import {
  linkCodeStartRoute,
  linkCodeVerifyRoute,
  listMethodsRoute,
  removeMethodRoute,
  updateMethodRoute,
} from '@dial/api';
import { DialError } from '@dial/core';
import { sql } from 'kysely';
import type { AppContext } from '../appContext.js';
import type { IdentityKind } from '../db/database.js';
import { dialectOf } from '../db/dialectOf.js';
import type { Channel } from '../delivery/index.js';
import type { TypedApp } from '../http/typedApp.js';
import { notifyOwner, type Recipient } from '../notices/notifyOwner.js';
import { checkCode } from './checkCode.js';
import { linkBudget } from './codeBudgets.js';
import { deviceHashOf, ensureDevice } from './devices.js';
import { linkMethod, toSignInMethod } from './linkMethod.js';
import { normalizeTarget } from './normalizeTarget.js';
import type { CodeSlot } from './otpCodes.js';
import { codeSentAnswer, sendCode } from './sendCode.js';
import { findUser } from './users.js';

/** What a channel without a provider answers (400 `invalid_data` with this message). */
const UNAVAILABLE: Record<Channel, string> = {
  sms: 'Codes cannot be sent by SMS on this server, so a phone number cannot be linked here.',
  email: 'Codes cannot be sent by e-mail on this server, so an e-mail address cannot be linked here.',
};

const KIND_OF: Record<Channel, IdentityKind> = { sms: 'phone', email: 'email' };

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
 * Every route acts on the session's own user only: another user's method id answers `404 not_found`, as
 * one that does not exist. Linking and unlinking tell the owner ({@link notifyOwner}).
 */
export function registerMethodRoutes(app: TypedApp, ctx: AppContext): void {
  const policy = ctx.config.otp;

  app.get(
    listMethodsRoute.url,
    { preHandler: app.requireUser, schema: listMethodsRoute.schema },
    async (request) => {
      const rows = await ctx.db
        .selectFrom('identities')
        .select(['id', 'kind', 'value', 'findable', 'created_at'])
        .where('user_id', '=', request.user!.id)
        .orderBy('created_at')
        .orderBy('value')
        .execute();
      return {
        methods: rows.map((row) => toSignInMethod({ ...row, findable: Number(row.findable) })),
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
    async (request) => {
      const user = request.user!;
      const { channel, to, code } = request.body;
      const target = normalizeTarget(channel, to);
      // Link codes are always bound to a browser: without a device cookie no code matches.
      const slot: CodeSlot = { purpose: 'link', ...target, deviceHash: deviceHashOf(request) ?? '' };
      await checkCode(ctx, request, slot, code);
      const now = ctx.now();

      const method = await linkMethod(
        ctx.db,
        user.id,
        { kind: KIND_OF[channel], value: target.identifier },
        ctx.config.maxSignInMethods,
        now,
      );
      // To the account's methods as they were before (the user loaded by the session): a stolen session that
      // links its own number to an account with none does not get the notice instead of the owner.
      await notifyOwner(ctx, user, 'method-linked', request.log);
      return { method };
    },
  );

  app.patch(
    updateMethodRoute.url,
    { preHandler: app.requireUser, schema: updateMethodRoute.schema },
    async (request) => {
      const row = await ctx.db
        .selectFrom('identities')
        .select(['id', 'kind', 'value', 'findable', 'created_at'])
        .where('id', '=', request.params.id)
        .where('user_id', '=', request.user!.id)
        .executeTakeFirst();
      if (row === undefined) throw new DialError('not_found', { details: 'no such sign-in method of yours' });
      if (row.kind !== 'phone') {
        throw new DialError('invalid_data', {
          message:
            'Only a phone number can be found by others (for send-to-phone); e-mail addresses and wallets never are.',
        });
      }
      const findable = request.body.findable ? 1 : 0;
      await ctx.db
        .updateTable('identities')
        .set({ findable })
        .where('id', '=', row.id)
        .where('user_id', '=', request.user!.id)
        .execute();
      return { method: toSignInMethod({ ...row, findable }) };
    },
  );

  app.post(
    removeMethodRoute.url,
    { preHandler: app.requireUser, schema: removeMethodRoute.schema },
    async (request) => {
      const userId = request.user!.id;
      const removed = await ctx.db.transaction().execute(async (trx) => {
        // Two removals (or a removal and a link) of one user run one at a time on every server, so two
        // concurrent removals of the last two methods cannot both pass the count: on PostgreSQL the user's
        // row is locked for the transaction; on SQLite one process's transactions already run one at a time.
        if (dialectOf(ctx.db) === 'postgres') {
          await sql`select id from users where id = ${userId} for update`.execute(trx);
        }
        const row = await trx
          .selectFrom('identities')
          .select(['kind', 'value'])
          .where('id', '=', request.params.id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (row === undefined) {
          throw new DialError('not_found', { details: 'no such sign-in method of yours' });
        }
        const { count } = await trx
          .selectFrom('identities')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        if (Number(count) <= 1) throw new DialError('last_method');
        await trx
          .deleteFrom('identities')
          .where('id', '=', request.params.id)
          .where('user_id', '=', userId)
          .execute();
        return row;
      });

      // The account's notice address as it is now, and the removed phone number or e-mail address too: it no
      // longer signs in, and its owner hears so even when a stolen session removed it.
      const user = await findUser(ctx.db, userId);
      if (user !== undefined) {
        const alsoTo: Recipient | undefined =
          removed.kind === 'phone'
            ? { channel: 'sms', to: removed.value }
            : removed.kind === 'email'
              ? { channel: 'email', to: removed.value }
              : undefined;
        await notifyOwner(ctx, user, 'method-removed', request.log, { alsoTo });
      }
      return { ok: true as const };
    },
  );
}
