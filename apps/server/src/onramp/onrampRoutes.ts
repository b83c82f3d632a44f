import { buildOnrampUrl, DialError, ONRAMP_ASSETS, type OnrampAsset } from '@dial/core';
import { Type } from 'typebox';
import type { AppContext } from '../appContext.js';
import { plainIp } from '../http/plainIp.js';
import { errorResponses } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import type { AvailableOffer } from './availableOffers.js';
import { checkAmount } from './checkAmount.js';
import type { OnrampProvider } from './onrampProvider.js';
import { partnerUserId } from './partnerUserId.js';

/**
 * `POST /api/onramp/session`: a buy link for the signed-in user's own wallet. Registered only when the
 * on-ramp is offered. The session token goes into the answer's `url` and nowhere else (never a log line).
 */
export function registerOnrampRoutes(
  app: TypedApp,
  ctx: AppContext,
  provider: OnrampProvider,
  offers: readonly AvailableOffer[],
): void {
  app.post(
    '/api/onramp/session',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['onramp'],
        summary:
          "Starts a purchase: a single-use session token from the on-ramp provider for the signed-in user's wallet, in the provider's buy-page link.",
        security: [{ session: [] }],
        body: Type.Object(
          {
            asset: Type.Enum([...ONRAMP_ASSETS]),
            network: Type.String({
              pattern: '^[a-z0-9-]{1,40}$',
              description: "The provider's network, e.g. `base`.",
            }),
            amount: Type.String({
              pattern: '^(\\d{1,12}(\\.\\d{1,18})?|\\.\\d{1,18})$',
              description: 'A positive decimal; `.5` is read as `0.5`.',
            }),
            experience: Type.Enum(['buy', 'send'], {
              description: '`buy`: by card; `send`: from an exchange account.',
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            url: Type.String({
              description: 'The buy page to open (a navigation); it holds the session token.',
            }),
            provider: Type.Enum(['coinbase', 'sandbox']),
          }),
          ...errorResponses(400, 401, 403, 404, 429, 503),
        },
      },
    },
    async (request) => {
      const user = request.user!;
      const now = ctx.now();
      await ctx.rateLimiter.consume(
        `onramp-session:user:${user.id}`,
        ctx.config.rateLimits.onrampSessionsPerUser,
        now,
      );
      await ctx.rateLimiter.consume(
        `onramp-session:ip:${request.ip}`,
        ctx.config.rateLimits.onrampSessionsPerIp,
        now,
      );
      const { asset, network, experience } = request.body;
      if (!offers.some((offer) => offer.asset === asset && offer.network === network)) {
        throw new DialError('invalid_data', {
          message: `${asset} on that network is not offered here. Pick one of the listed networks.`,
        });
      }
      const amount = checkAmount(request.body.amount, asset as OnrampAsset, provider.name === 'sandbox');
      const wallet = await ctx.db
        .selectFrom('wallets')
        .select('address')
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (wallet === undefined) throw new DialError('wallet_not_found');
      const sessionToken = await provider.createSessionToken({
        userId: user.id,
        walletAddress: wallet.address,
        asset: asset as OnrampAsset,
        network,
        amount,
        experience,
        clientIp: plainIp(request.ip),
      });
      const url = buildOnrampUrl({
        baseUrl: provider.payUrl,
        appId: provider.appId,
        sessionToken,
        walletAppId: ctx.config.onramp!.appId,
        experience,
        amount,
        asset: asset as OnrampAsset,
        network,
        partnerUserId: partnerUserId(ctx.keys.onrampPartner, user.id),
        offers,
      });
      request.log.info({ asset, network, experience, provider: provider.name }, 'on-ramp session started');
      return { url, provider: provider.name };
    },
  );
}
