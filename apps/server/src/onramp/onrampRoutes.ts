import { onrampSessionRoute } from '@dial/api';
import { buildOnrampUrl, DialError, type OnrampAsset } from '@dial/core';
import type { AppContext } from '../appContext.js';
import { accountWallet } from '../auth/accountWallet.js';
import { rateKey } from '../config/rateKey.js';
import { plainIp } from '../http/plainIp.js';
import type { TypedApp } from '../http/typedApp.js';
import { ipSubject } from '../rateLimit/ipSubject.js';
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
    onrampSessionRoute.url,
    {
      preHandler: app.requireUser,
      schema: onrampSessionRoute.schema,
    },
    async (request) => {
      const user = request.user!;
      const now = ctx.now();
      await ctx.rateLimiter.consume(
        rateKey('onrampSessionsPerUser', user.id),
        ctx.config.rateLimits.onrampSessionsPerUser,
        now,
      );
      await ctx.rateLimiter.consume(
        rateKey('onrampSessionsPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
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
      // The account's wallet: the embedded one, else the first wallet linked (a wallet-signed-in person).
      const wallet = await accountWallet(ctx.db, user.id);
      if (wallet === null) throw new DialError('wallet_not_found');
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
