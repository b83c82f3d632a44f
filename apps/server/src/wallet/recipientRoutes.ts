import { DialError, isDialError, isValidPhone, maskIdentifier, parsePhone, toE164 } from '@dial/core';
import { Type } from 'typebox';
import type { AppContext } from '../appContext.js';
import { errorResponses } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import { findWalletByPhone } from './walletStore.js';

/** Reads a phone number as typed (international form, or national US) into E.164. */
function readPhone(text: string): string {
  try {
    const phone = parsePhone(text);
    if (isValidPhone(phone)) return toE164(phone);
  } catch (error) {
    // parsePhone's invalid_data ("has letters", "too long") is, for this field, an invalid phone number.
    if (!isDialError(error)) throw error;
  }
  throw new DialError('invalid_phone');
}

/**
 * `GET /api/users/lookup?phone=…` finds the wallet to send to by phone number: the address of the Dial
 * user who verified that number, and the number masked to its last four digits. Nothing else about the
 * user (no id, no e-mail). An unknown number and a user without a wallet answer the same 404. Limited per
 * user and per client address, since each answer tells whether a number has a Dial wallet.
 */
export function registerRecipientRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    '/api/users/lookup',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['wallet'],
        summary: 'The wallet address of the Dial user who verified a phone number, to send to.',
        security: [{ session: [] }],
        querystring: Type.Object({
          phone: Type.String({
            minLength: 1,
            maxLength: 64,
            description: 'The number in international form (`+447400123456`, spaces allowed).',
          }),
        }),
        response: {
          200: Type.Object(
            {
              address: Type.String({ description: 'EIP-55 checksummed address.' }),
              phone: Type.String({ description: 'The number masked to its last four digits, e.g. `*3456`.' }),
            },
            { additionalProperties: false },
          ),
          ...errorResponses(400, 401, 404, 429, 503),
        },
      },
    },
    async (request) => {
      const now = ctx.now();
      await ctx.rateLimiter.consume(`lookup:ip:${request.ip}`, ctx.config.rateLimits.walletLookupsPerIp, now);
      await ctx.rateLimiter.consume(
        `lookup:user:${request.user!.id}`,
        ctx.config.rateLimits.walletLookupsPerUser,
        now,
      );
      const e164 = readPhone(request.query.phone);
      const address = await findWalletByPhone(ctx.db, e164);
      if (address === undefined) throw new DialError('recipient_not_found');
      return { address, phone: maskIdentifier(e164) };
    },
  );
}
