import {
  isDialError,
  isNativeOnrampAsset,
  LOCAL_CHAIN_ID,
  type OnrampAsset,
  USDC_DECIMALS,
} from '@dial/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Address, type Hex, parseEther, parseUnits } from 'viem';
import { recordSentCredit } from '../activity/recordSentCredit.js';
import type { AppContext } from '../appContext.js';
import { createChainWatchDeps } from '../chainWatch/chainWatchDeps.js';
import { rateKey } from '../config/rateKey.js';
import { mintTestUsdc } from '../devchain/index.js';
import { retryAfterSeconds } from '../http/errorHandling.js';
import { ipSubject } from '../rateLimit/ipSubject.js';
import type { AvailableOffer } from './availableOffers.js';
import { partnerUserId } from './partnerUserId.js';
import {
  CHECKOUT_CSS,
  PROBLEM_STATUS,
  renderCheckoutPage,
  renderMessagePage,
  renderProblemPage,
  SANDBOX_CSS_PATH,
  SANDBOX_DECLINED_CARD,
  SANDBOX_TEST_CARD,
} from './sandboxPage.js';
import { SANDBOX_APP_ID, SANDBOX_BUY_PATH, SANDBOX_PAY_PATH } from './sandboxProvider.js';
import {
  consumeSandboxToken,
  inspectSandboxToken,
  recordSandboxOutcome,
  type SandboxSession,
  type SandboxTokenProblem,
} from './sandboxSessions.js';

/** Where the checkout sends people back to: the app, with the outcome in the query (no secret in it). */
export function returnUrl(publicUrl: string, outcome: 'credited' | 'failed'): string {
  return `${publicUrl}/?onramp=${outcome}`;
}

/**
 * The sandbox checkout, served at the buy link's base URL: `GET /onramp/sandbox/buy` (the order and a
 * form), `POST /onramp/sandbox/pay` (an HTML form post: pays by test card or from the sandbox exchange
 * account, credits the wallet on the local chain, and redirects back to the app), and its stylesheet.
 * Only registered with the sandbox provider (never in production) and the local chain on.
 */
export async function registerSandboxRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  offers: readonly AvailableOffer[],
): Promise<void> {
  const localChain = ctx.config.localChain;
  const walletAppId = ctx.config.onramp?.appId;
  if (localChain === null || walletAppId === undefined) return;
  const appUrl = `${ctx.config.publicUrl}/`;
  const { client } = createChainWatchDeps(ctx);
  const networkName = (network: string) =>
    offers.find((offer) => offer.network === network)?.networkName ?? network;

  const sendPage = (reply: FastifyReply, status: number, html: string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  const sendProblem = (reply: FastifyReply, problem: SandboxTokenProblem | 'altered') =>
    sendPage(reply, PROBLEM_STATUS[problem], renderProblemPage(problem, appUrl));

  // A scope of its own: HTML form posts are accepted here and nowhere else in the API.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );

    scope.get(SANDBOX_CSS_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'no-cache').type('text/css; charset=utf-8').send(CHECKOUT_CSS),
    );

    scope.get(SANDBOX_BUY_PATH, { schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Record<string, string | string[] | undefined>;
      const param = (name: string) => (typeof query[name] === 'string' ? query[name] : undefined);
      const token = param('sessionToken');
      if (token === undefined || token === '') return sendProblem(reply, 'unknown');
      const inspected = await inspectSandboxToken(ctx.db, token, ctx.now());
      if ('problem' in inspected) return sendProblem(reply, inspected.problem);
      const { session } = inspected;
      const expected: Record<string, string> = {
        appId: SANDBOX_APP_ID,
        endPartnerName: `dial:${walletAppId}`,
        defaultExperience: session.experience,
        presetCryptoAmount: session.amount,
        defaultNetwork: session.network,
        defaultPaymentMethod: session.experience === 'buy' ? 'CARD' : 'CRYPTO_ACCOUNT',
        defaultAsset: session.asset,
        partnerUserId: partnerUserId(ctx.keys.onrampPartner, session.user_id),
      };
      if (Object.entries(expected).some(([name, value]) => param(name) !== value)) {
        return sendProblem(reply, 'altered');
      }
      return sendPage(
        reply,
        200,
        renderCheckoutPage({
          session,
          token,
          networkName: networkName(session.network),
          payPath: SANDBOX_PAY_PATH,
        }),
      );
    });

    scope.post(SANDBOX_PAY_PATH, { schema: { hide: true } }, async (request, reply) => {
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
      const now = ctx.now();
      try {
        await ctx.rateLimiter.consume(
          rateKey('sandboxPaymentsPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
          ctx.config.rateLimits.sandboxPaymentsPerIp,
          now,
        );
      } catch (error) {
        // A page, like every answer of this form, not the API's JSON; Retry-After as the API's.
        if (!isDialError(error, 'rate_limit_unavailable') && !isDialError(error, 'too_many_requests')) {
          throw error;
        }
        const retryAfter = retryAfterSeconds(error);
        if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
        if (error.code === 'rate_limit_unavailable') {
          return sendPage(reply, 503, renderMessagePage('Try again in a moment', error.message, appUrl));
        }
        return sendPage(reply, 429, renderMessagePage('Too many attempts', error.message, appUrl));
      }
      const token = text('token');
      if (token === '') return sendProblem(reply, 'unknown');
      const inspected = await inspectSandboxToken(ctx.db, token, now);
      if ('problem' in inspected) return sendProblem(reply, inspected.problem);

      const refusal = inspected.session.experience === 'buy' ? checkCard(text, now) : checkAccount(text);
      if (refusal !== null) {
        return sendPage(
          reply,
          400,
          renderCheckoutPage({
            session: inspected.session,
            token,
            networkName: networkName(inspected.session.network),
            payPath: SANDBOX_PAY_PATH,
            error: refusal,
            values: { expiry: text('expiry').slice(0, 7) },
          }),
        );
      }

      const consumed = await consumeSandboxToken(ctx.db, token, now);
      if ('problem' in consumed) return sendProblem(reply, consumed.problem);
      let sent: { txHash: Hex; asset: 'native' | 'usdc'; amount: bigint };
      try {
        sent = await credit(ctx, consumed.session, localChain.rpcUrl, localChain.usdc ?? null);
      } catch (error) {
        request.log.warn(
          { asset: consumed.session.asset, reason: error instanceof Error ? error.message : String(error) },
          'sandbox on-ramp credit failed',
        );
        await recordSandboxOutcome(ctx.db, token, 'failed');
        return sendPage(
          reply,
          503,
          renderMessagePage(
            'The funds could not be sent',
            'The local chain could not be reached, so nothing was credited. Go back to Dial and try again.',
            returnUrl(ctx.config.publicUrl, 'failed'),
          ),
        );
      }
      await recordSandboxOutcome(ctx.db, token, 'credited');
      // In the history as bought (or deposited) through the on-ramp, with the status read from the receipt.
      await recordSentCredit(
        ctx,
        client,
        {
          userId: consumed.session.user_id,
          wallet: consumed.session.wallet_address as Address,
          chainId: LOCAL_CHAIN_ID,
          ...sent,
          source: 'onramp',
          onrampSession: consumed.session.token_hash,
        },
        request.log,
      );
      request.log.info(
        { asset: consumed.session.asset, experience: consumed.session.experience },
        'sandbox on-ramp credited',
      );
      return reply
        .header('cache-control', 'no-store')
        .redirect(returnUrl(ctx.config.publicUrl, 'credited'), 303);
    });
  });
}

/** Credits the purchase on the local chain: native currency from the faucet, or test USDC minted. */
async function credit(
  ctx: AppContext,
  session: SandboxSession,
  rpcUrl: string,
  usdc: Address | null,
): Promise<{ txHash: Hex; asset: 'native' | 'usdc'; amount: bigint }> {
  const to = session.wallet_address as Address;
  if (isNativeOnrampAsset(session.asset as OnrampAsset)) {
    const amount = parseEther(session.amount);
    const txHash = await ctx.sendFromFaucet({ rpcUrl, chainId: LOCAL_CHAIN_ID, to, value: amount });
    return { txHash, asset: 'native', amount };
  }
  if (usdc === null) throw new Error('the local chain has no test USDC');
  const amount = parseUnits(session.amount, USDC_DECIMALS);
  const txHash = await mintTestUsdc({ rpcUrl, chainId: LOCAL_CHAIN_ID, usdc, to, amount });
  return { txHash, asset: 'usdc', amount };
}

/** The test card's checks: the number (spaces allowed), a future MM/YY expiry, a 3- or 4-digit code. */
function checkCard(text: (name: string) => string, now: Date): string | null {
  const number = text('cardNumber').replace(/[\s-]/g, '');
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(text('expiry').trim());
  const cvc = text('cvc').trim();
  if (!/^\d{12,19}$/.test(number)) return 'Enter the card number: 16 digits, such as 4242 4242 4242 4242.';
  if (expiry === null) return 'Enter the expiry date as MM/YY, for example 12/34.';
  const month = Number(expiry[1]);
  const year = 2000 + Number(expiry[2]);
  if (month < 1 || month > 12) return 'The expiry month must be 01 to 12.';
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return 'This card has expired.';
  if (!/^\d{3,4}$/.test(cvc)) return 'Enter the 3-digit security code from the back of the card.';
  if (number === SANDBOX_DECLINED_CARD)
    return 'The card was declined. Nothing was charged. Try another card.';
  if (number !== SANDBOX_TEST_CARD) return 'The sandbox only accepts the test card 4242 4242 4242 4242.';
  return null;
}

function checkAccount(text: (name: string) => string): string | null {
  return text('account') === 'sandbox-exchange' ? null : 'Choose the exchange account to send from.';
}
