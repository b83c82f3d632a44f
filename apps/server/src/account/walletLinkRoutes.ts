import { linkWalletNonceRoute, linkWalletRoute } from '@dial/api';
import { answerChange, changeAccount } from '../accountChanges/changeAccount.js';
import type { AppContext } from '../appContext.js';
import { sessionHashOf } from '../auth/reauthentication.js';
import { issueSiweNonce, type SiweNonceBinding } from '../auth/siwe/siweNonces.js';
import { createSiweChecks, MULTILINE } from '../auth/siwe/siweRoutes.js';
import { rateKey } from '../config/rateKey.js';
import type { TypedApp } from '../http/typedApp.js';
import { ipSubject } from '../rateLimit/ipSubject.js';

/**
 * `POST /api/auth/methods/wallet/nonce` and `/api/auth/methods/wallet`: link a wallet to the signed-in
 * account with Sign-In with Ethereum. The message is checked as a sign-in's is (`auth/siwe/siweRoutes.ts`),
 * with a nonce bound to the session that asked; the link itself is a change to the account
 * (`changeAccount`), made at once with the account key's proof or after the cooling-off period.
 */
export function registerWalletLinkRoutes(app: TypedApp, ctx: AppContext): void {
  const { nonceAnswer, proveSigned } = createSiweChecks(ctx);
  const limits = ctx.config.rateLimits;

  app.post(
    linkWalletNonceRoute.url,
    { preHandler: app.requireUser, schema: linkWalletNonceRoute.schema },
    async (request) => {
      const now = ctx.now();
      await ctx.rateLimiter.consume(
        rateKey('siweNoncesPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
        limits.siweNoncesPerIp,
        now,
      );
      const issued = await issueSiweNonce(
        ctx.db,
        { purpose: 'link', sessionHash: sessionHashOf(request) },
        now,
      );
      return nonceAnswer(request, issued, 'link');
    },
  );

  app.post(
    linkWalletRoute.url,
    { preHandler: app.requireUser, schema: linkWalletRoute.schema, config: MULTILINE },
    async (request, reply) => {
      const binding: SiweNonceBinding = { purpose: 'link', sessionHash: sessionHashOf(request) };
      const { address } = await proveSigned(request.body, binding, request.ip);
      // The signature proves the new wallet; only the account's key proves the account's owner wants it.
      const outcome = await changeAccount(
        ctx,
        request,
        { action: 'link-method', kind: 'wallet', value: address },
        request.body.proof,
      );
      return answerChange(reply, outcome, (applied) => ({ method: applied }));
    },
  );
}
