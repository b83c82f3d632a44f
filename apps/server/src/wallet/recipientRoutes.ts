import { lookupRecipientRoute } from '@dial/api';
import { DialError, maskIdentifier, readInternationalPhone } from '@dial/core';
import type { AppContext } from '../appContext.js';
import { rateKey } from '../config/rateKey.js';
import type { TypedApp } from '../http/typedApp.js';
import { ipSubject } from '../rateLimit/ipSubject.js';
import { findWalletByPhone } from './walletStore.js';

/**
 * `GET /api/users/lookup?phone=…` finds the wallet to send to by phone number, in international form only
 * (a national number is refused with `invalid_phone`, as at sign-in): the address of the Dial
 * user who verified that number, and the number masked to its last four digits. Nothing else about the
 * user (no id, no e-mail). An unknown number and a user without a wallet answer the same 404. Limited per
 * user and per client address, since each answer tells whether a number has a Dial wallet.
 */
export function registerRecipientRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    lookupRecipientRoute.url,
    {
      preHandler: app.requireUser,
      schema: lookupRecipientRoute.schema,
    },
    async (request) => {
      const now = ctx.now();
      await ctx.rateLimiter.consume(
        rateKey('walletLookupsPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
        ctx.config.rateLimits.walletLookupsPerIp,
        now,
      );
      await ctx.rateLimiter.consume(
        rateKey('walletLookupsPerUser', request.user!.id),
        ctx.config.rateLimits.walletLookupsPerUser,
        now,
      );
      const e164 = readInternationalPhone(request.query.phone);
      const address = await findWalletByPhone(ctx.db, e164);
      if (address === undefined) throw new DialError('recipient_not_found');
      return { address, phone: maskIdentifier(e164) };
    },
  );
}
